import { z } from "zod";
import { anyAddressKey } from "../../chains/vmFamilies.js";
import { STATUS_UPDATED_EVENT, statusUpdateKey } from "../../events/statusUpdate.js";

const hex32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be a 32-byte hex request id");
// A wallet of any chain family; echoed as sent, keyed as its family compares it (EVM: lower case).
const address = z.string().refine((value) => anyAddressKey(value) !== undefined, "must be an address");

/** Exactly one filter: a request id, a wallet (user or recipient) or a chain (origin or destination). */
const filters = z.union([
  z.strictObject({ id: hex32 }),
  z.strictObject({ wallet: address }),
  z.strictObject({ chainId: z.number().int().positive() }),
]);

const subscription = { event: z.literal(STATUS_UPDATED_EVENT), filters };

/** What a client may send on the `/ws` feed. */
export const feedMessage = z.discriminatedUnion("type", [
  z.object({ type: z.literal("subscribe"), ...subscription }),
  z.object({ type: z.literal("unsubscribe"), ...subscription }),
  z.object({ type: z.literal("ping") }),
]);

export type FeedMessage = z.infer<typeof feedMessage>;
export type FeedFilters = z.infer<typeof filters>;

/** The index key of a filter: the same key the fan-out computes from each update. */
export function filterKey(filter: FeedFilters): string {
  if ("id" in filter) return statusUpdateKey.request(filter.id);
  if ("wallet" in filter) return statusUpdateKey.wallet(anyAddressKey(filter.wallet)!);
  return statusUpdateKey.chain(filter.chainId);
}

/** Parses one client frame; a readable reason instead of a throw for anything malformed. */
export function parseFeedMessage(raw: string): { ok: true; message: FeedMessage } | { ok: false; reason: string } {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, reason: "message is not JSON" };
  }
  const parsed = feedMessage.safeParse(json);
  if (!parsed.success) return { ok: false, reason: z.prettifyError(parsed.error).replace(/\n/g, "; ") };
  return { ok: true, message: parsed.data };
}
