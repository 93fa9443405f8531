import type { Queryable } from "./queryable.js";

export type RequestQuoteData = {
  id: string;
  orderId: string;
  referrer: string | null;
  quote: unknown;
  orderData: unknown;
  createdAt: Date;
  apiKeyName: string | null;
  integrator: string | null;
};

/** The stored quote of a request with the key (and integrator) it was made with. */
export async function getRequestQuoteData(db: Queryable, requestId: string): Promise<RequestQuoteData | undefined> {
  const { rows } = await db.query<{
    id: string;
    order_id: string;
    referrer: string | null;
    quote: unknown;
    order_data: unknown;
    created_at: Date;
    name: string | null;
    integrator: string | null;
  }>(
    `SELECT r.id, r.order_id, r.referrer, r.quote, r.order_data, r.created_at, k.name, k.integrator
       FROM crossfill.requests r LEFT JOIN crossfill.api_keys k ON k.id = r.api_key_id
      WHERE r.id = $1`,
    [requestId],
  );
  const row = rows[0];
  return (
    row && {
      id: row.id,
      orderId: row.order_id,
      referrer: row.referrer,
      quote: row.quote,
      orderData: row.order_data,
      createdAt: row.created_at,
      apiKeyName: row.name,
      integrator: row.integrator,
    }
  );
}
