import { type RequestView, listRequestViews } from "../../schema/requestsQuery.js";
import type { Queryable } from "../../schema/queryable.js";
import { emptyFilter } from "../../schema/requestFilter.js";

/** Many requests by id, hydrated as GET /requests/v3 hydrates its page (one query); unknown ids are absent. */
export function requestViewsByIds(db: Queryable, ids: readonly string[]): Promise<RequestView[]> {
  const filter = emptyFilter();
  filter.conditions.push({ field: "id", negate: false, values: [...ids] });
  return listRequestViews(db, { filter, sortBy: "createdAt", sortDirection: "desc", limit: ids.length });
}
