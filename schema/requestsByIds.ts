import { type Queryable, type RequestRow, type StoredRequest, toStoredRequest } from "./requests.js";

/** Many requests by id in one query (GraphQL's request loader); ids that do not exist are simply absent. */
export async function requestsByIds(db: Queryable, ids: readonly string[]): Promise<StoredRequest[]> {
  const { rows } = await db.query<RequestRow>("SELECT * FROM crossfill.requests WHERE id = ANY($1)", [ids]);
  return rows.map(toStoredRequest);
}
