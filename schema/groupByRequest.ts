/** Rows of many keys → one list per key, in the order the keys were given (what a DataLoader wants). */
export function groupByKey<T>(keys: readonly string[], items: readonly T[], keyOf: (item: T) => string): T[][] {
  const byKey = new Map<string, T[]>(keys.map((key) => [key, []]));
  for (const item of items) byKey.get(keyOf(item))?.push(item);
  return keys.map((key) => byKey.get(key) ?? []);
}

/** Rows of many requests → one list per requested id, in the order the ids were given. */
export function groupByRequest<T extends { requestId: string }>(
  requestIds: readonly string[],
  items: readonly T[],
): T[][] {
  return groupByKey(requestIds, items, (item) => item.requestId);
}

/** Rows → one list per request, requests in the order they first appear, each request's rows in the order given. */
export function groupsByRequest<T extends { requestId: string }>(items: readonly T[]): T[][] {
  return groupByRequest([...new Set(items.map((item) => item.requestId))], items);
}
