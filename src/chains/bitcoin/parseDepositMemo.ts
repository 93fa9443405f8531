/**
 * What a Bitcoin deposit's OP_RETURN says: the id it names (`orderId`: a request id, as Crossfill's PSBTs write, or an
 * order id; readers map the first to its order) and, when the payer wants, who a refund goes to.
 */
export type DepositMemo = { orderId: string; depositor?: string };

// ASCII `0x` + 64 hex (a request or order id), optionally followed by `|depositor=<address>|`.
const MEMO = /^(0x[0-9a-fA-F]{64})(?:\|depositor=([^|]+)\|)?$/;

/**
 * Reads an OP_RETURN payload as a deposit memo; undefined when it is not one, or names a depositor that
 * `parseAddress` (the chain's network) refuses. The id comes out in lower case, as ids are stored.
 */
export function parseDepositMemo(
  payload: Uint8Array,
  parseAddress: (value: string) => string | undefined,
): DepositMemo | undefined {
  const match = MEMO.exec(Buffer.from(payload).toString("latin1"));
  if (!match) return undefined;
  const orderId = match[1]!.toLowerCase();
  if (match[2] === undefined) return { orderId };
  const depositor = parseAddress(match[2]);
  return depositor === undefined ? undefined : { orderId, depositor };
}
