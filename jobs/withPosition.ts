/** A sweep or unmatched-refund payload as a worker before fact positions were named `position` queued it. */
export type LegacyPositionPayload<T extends { position: number }> = Omit<T, "position"> & { logIndex: number };

/**
 * The job's deposit outpoint with its `position`, from a payload of either shape: jobs queued by a worker of an
 * earlier version (`logIndex`, the same number) are still in Redis when an operator upgrades, and are processed.
 */
export function withPosition<T extends { position: number }>(data: T | LegacyPositionPayload<T>): T {
  if ("position" in data && typeof data.position === "number") return data;
  const { logIndex, ...rest } = data as LegacyPositionPayload<T>;
  return { ...rest, position: logIndex } as unknown as T;
}
