import { z } from "zod";
import { PriceFeedError } from "../priceFeed.js";

const integer = z.string().regex(/^-?\d+$/, "an integer string");

/** The part of Hermes' `GET /v2/updates/price/latest?parsed=true` answer we read (the binary update is ignored). */
const hermesLatestSchema = z.object({
  parsed: z.array(
    z.object({
      id: z.string().regex(/^(0x)?[0-9a-fA-F]{64}$/),
      price: z.object({
        price: integer,
        conf: integer,
        expo: z.number().int().min(-64).max(64),
        publish_time: z.number().int().nonnegative(),
      }),
    }),
  ),
});

export type HermesPrice = { id: string; price: bigint; conf: bigint; expo: number; publishTime: number };

/** A feed id as Hermes answers it: lower-case hex without 0x. */
export const hermesFeedId = (id: string) => id.toLowerCase().replace(/^0x/, "");

/**
 * The latest prices of feeds from a Hermes server, in one request: `GET <url>/v2/updates/price/latest?ids[]=…
 * &parsed=true`, the answer checked with zod. A 429 is a PriceFeedError carrying its Retry-After; any other failure
 * (HTTP error, malformed answer) throws.
 */
export async function fetchHermesPrices(
  hermesUrl: string,
  ids: readonly string[],
  signal: AbortSignal,
): Promise<HermesPrice[]> {
  const query = ids.map((id) => `ids[]=${hermesFeedId(id)}`).join("&");
  const response = await fetch(`${hermesUrl.replace(/\/+$/, "")}/v2/updates/price/latest?${query}&parsed=true`, {
    signal,
    headers: { accept: "application/json" },
  });
  if (response.status === 429) {
    const seconds = Number(response.headers.get("retry-after"));
    await response.body?.cancel();
    throw new PriceFeedError(
      "Hermes answered 429 Too Many Requests",
      Number.isFinite(seconds) ? seconds * 1000 : undefined,
    );
  }
  if (!response.ok) {
    const text = (await response.text()).slice(0, 200);
    throw new PriceFeedError(`Hermes answered ${response.status}: ${text}`);
  }
  const parsed = hermesLatestSchema.safeParse(await response.json());
  if (!parsed.success) throw new PriceFeedError(`Hermes' answer is malformed: ${z.prettifyError(parsed.error)}`);
  return parsed.data.parsed.map((feed) => ({
    id: hermesFeedId(feed.id),
    price: BigInt(feed.price.price),
    conf: BigInt(feed.price.conf),
    expo: feed.price.expo,
    publishTime: feed.price.publish_time,
  }));
}
