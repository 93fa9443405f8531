/**
 * Where a chain fact sits in its transaction or chain order: an EVM log's index in its block, a Bitcoin output's
 * vout, a Solana instruction, a TON lt. Postgres keeps it as `bigint`; a TON lt or a Solana position can pass 2^53, so
 * it is a bigint beyond the safe integers and a number below them. One canonical form, so `===` compares two positions:
 * whatever makes a position (a row, a job payload, a family's decoder of large positions) makes it with `factPosition`.
 */
export type FactPosition = number | bigint;

/** The canonical position of a decimal string (a `bigint` column as pg reads it), a number or a bigint. */
export function factPosition(value: string | number | bigint): FactPosition {
  const exact = BigInt(value);
  if (exact < 0n) throw new RangeError(`a fact position is never negative: ${value}`);
  return exact <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(exact) : exact;
}

/** A position that indexes an array of its transaction (a Bitcoin vout): always a number; a bigint one is no such index. */
export function indexPosition(position: FactPosition): number {
  if (typeof position !== "number") throw new RangeError(`position ${position} is no index of a transaction`);
  return position;
}

/** GraphQL's `Int` is 32-bit signed: what a position shows there, or null when it does not fit (a TON lt). */
export function int32Position(position: FactPosition): number | null {
  return position <= 2_147_483_647 ? Number(position) : null;
}
