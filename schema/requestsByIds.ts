import { type RequestRow, type StoredRequest, toStoredRequest } from "./requests.js";
import type { Queryable } from "./queryable.js";

/** A request with the integrator of the key it was quoted with (null for a keyless quote): who may see its referrer. */
export type OwnedRequest = StoredRequest & { apiKeyIntegrator: string | null };

/** Many requests by id in one query (GraphQL's request loader); ids that do not exist are simply absent. */
export async function requestsByIds(db: Queryable, ids: readonly string[]): Promise<OwnedRequest[]> {
  const { rows } = await db.query<RequestRow & { api_key_integrator: string | null }>(
    `SELECT r.*, k.integrator AS api_key_integrator
       FROM crossfill.requests r LEFT JOIN crossfill.api_keys k ON k.id = r.api_key_id
      WHERE r.id = ANY($1)`,
    [ids],
  );
  return rows.map((row) => ({ ...toStoredRequest(row), apiKeyIntegrator: row.api_key_integrator }));
}
