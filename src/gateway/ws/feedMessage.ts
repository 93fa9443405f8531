import { z } from "zod";
import { invalidInput } from "../../domain/invalidInput.js";
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

const FILTERS_ACCEPTED =
  "filters: give exactly one of id (a request id, 0x and 64 hex digits), wallet (a user or recipient address) or " +
  "chainId (an origin or destination chain id)";

/** Parses one client frame; a readable reason instead of a throw for anything malformed. */
export function parseFeedMessage(raw: string): { ok: true; message: FeedMessage } | { ok: false; reason: string } {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, reason: "message is not JSON" };
  }
  const parsed = feedMessage.safeParse(json, { reportInput: true });
  if (parsed.success) return { ok: true, message: parsed.data };
  const [field, key] = parsed.error.issues[0].path;
  // A filter of no known shape, or of several at once: say which keys there are rather than "Invalid input".
  if (field === "filters" && key === undefined) return { ok: false, reason: FILTERS_ACCEPTED };
  if (field === "type") return { ok: false, reason: "type: must be subscribe, unsubscribe or ping" };
  if (field === "event") return { ok: false, reason: `event: must be ${STATUS_UPDATED_EVENT}` };
  return { ok: false, reason: invalidInput(parsed.error, "message").message };
}
