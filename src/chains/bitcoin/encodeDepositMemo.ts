/**
 * An OP_RETURN payload naming a request or an order: ASCII `0x` + 64 hex, as `parseDepositMemo` reads it (66 bytes,
 * within the 80 a standard OP_RETURN carries). A deposit PSBT names its request id; payouts and refunds name the order.
 */
export function encodeDepositMemo(id: string): Uint8Array {
  if (!/^0x[0-9a-f]{64}$/i.test(id)) throw new Error(`not a request or order id: ${id}`);
  return Buffer.from(id.toLowerCase(), "latin1");
}
