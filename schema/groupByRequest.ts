/** Rows of many requests → one list per requested id, in the order the ids were given (what a DataLoader wants). */
export function groupByRequest<T extends { requestId: string }>(requestIds: readonly string[], items: readonly T[]): T[][] {
  const byRequest = new Map<string, T[]>(requestIds.map((id) => [id, []]));
  for (const item of items) byRequest.get(item.requestId)?.push(item);
  return requestIds.map((id) => byRequest.get(id) ?? []);
}
