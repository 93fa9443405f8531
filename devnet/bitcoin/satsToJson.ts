/** Esplora's JSON carries satoshis as numbers; a bigint past 2^53 would silently lose precision there. */
export function satsToJson(sats: bigint): number {
  if (sats > BigInt(Number.MAX_SAFE_INTEGER) || sats < -BigInt(Number.MAX_SAFE_INTEGER))
    throw new RangeError(`${sats} satoshis cannot be represented exactly as a JSON number`);
  return Number(sats);
}
