import { type FactPosition, factPosition } from "../src/domain/factPosition.js";

/**
 * A sweep or unmatched-refund payload as queued: its position a decimal string (JSON has no bigint, and a TON lt
 * passes 2^53), a number as a worker before bigint positions queued it, or `logIndex` from before positions were
 * named `position`.
 */
export type PositionPayload<T extends { position: FactPosition }> = Omit<T, "position"> &
  ({ position: string | number } | { logIndex: number });

/** A deposit outpoint as a job payload: the position as a decimal string. */
export function positionPayload<T extends { position: FactPosition }>(
  data: T,
): Omit<T, "position"> & { position: string } {
  return { ...data, position: data.position.toString() };
}

/**
 * The job's deposit outpoint with its `position`, from a payload of any shape: jobs queued by a worker of an earlier
 * version are still in Redis when an operator upgrades, and are processed.
 */
export function withPosition<T extends { position: FactPosition }>(data: PositionPayload<T>): T {
  if ("position" in data) return { ...data, position: factPosition(data.position) } as unknown as T;
  const { logIndex, ...rest } = data;
  return { ...rest, position: factPosition(logIndex) } as unknown as T;
}
