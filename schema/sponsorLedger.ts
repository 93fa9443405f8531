import type pg from "pg";
import type { Queryable } from "./queryable.js";

const BALANCE = `
  SELECT coalesce(sum(CASE WHEN l.kind = 'fund' THEN l.amount_micro_usd ELSE -l.amount_micro_usd END), 0) AS balance
    FROM crossfill.sponsor_ledger l LEFT JOIN crossfill.requests r ON r.id = l.request_id
   WHERE l.integrator = $1 AND (l.kind = 'fund' OR r.status NOT IN ('failure', 'refund'))`;

/** An integrator's sponsorship balance in USD micro-units: funded minus what its filled requests drew. */
export async function sponsorBalance(db: Queryable, integrator: string): Promise<bigint> {
  const { rows } = await db.query<{ balance: string }>(BALANCE, [integrator]);
  return BigInt(rows[0].balance);
}

/** The operator's top-up (negative: taken back); the balance after it. */
export async function fundSponsor(
  client: pg.PoolClient,
  funding: { integrator: string; amountMicroUsd: bigint; note?: string },
): Promise<bigint> {
  await lockSponsor(client, funding.integrator);
  await client.query(
    "INSERT INTO crossfill.sponsor_ledger (integrator, kind, amount_micro_usd, note) VALUES ($1, 'fund', $2, $3)",
    [funding.integrator, funding.amountMicroUsd.toString(), funding.note ?? null],
  );
  return sponsorBalance(client, funding.integrator);
}

/** Every integrator with a ledger, and its balance. */
export async function listSponsorBalances(db: Queryable): Promise<Array<{ integrator: string; balance: bigint }>> {
  const { rows } = await db.query<{ integrator: string }>(
    "SELECT DISTINCT integrator FROM crossfill.sponsor_ledger ORDER BY integrator",
  );
  return Promise.all(
    rows.map(async (row) => ({ integrator: row.integrator, balance: await sponsorBalance(db, row.integrator) })),
  );
}

function lockSponsor(client: pg.PoolClient, integrator: string) {
  return client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`sponsor:${integrator}`]);
}

/** A draw's payment in the request's input currency: the total and each fee bucket, smallest units. */
export type SponsorDrawPayment = {
  chainId: number;
  currency: string;
  amount: bigint;
  components: Record<string, bigint>;
};

export type SponsorDraw = {
  integrator: string;
  requestId: string;
  amountMicroUsd: bigint;
  /** Absent on draws written before payments were recorded. */
  payment?: SponsorDrawPayment;
};

/**
 * Draws one request's sponsored fees when its fill is signed, in that transaction: true when drawn (now or by an
 * earlier run), false when the balance no longer covers it. Under the integrator's lock, so two fills never both
 * spend the last of a balance.
 */
export async function drawSponsorship(client: pg.PoolClient, draw: SponsorDraw): Promise<boolean> {
  await lockSponsor(client, draw.integrator);
  const existing = await client.query(
    "SELECT 1 FROM crossfill.sponsor_ledger WHERE kind = 'draw' AND request_id = $1",
    [draw.requestId],
  );
  if (existing.rowCount) return true;
  if ((await sponsorBalance(client, draw.integrator)) < draw.amountMicroUsd) return false;
  const { payment } = draw;
  await client.query(
    `INSERT INTO crossfill.sponsor_ledger (integrator, kind, amount_micro_usd, request_id, chain_id, currency, amount, components)
     VALUES ($1, 'draw', $2, $3, $4, lower($5), $6, $7)`,
    [
      draw.integrator,
      draw.amountMicroUsd.toString(),
      draw.requestId,
      payment?.chainId ?? null,
      payment?.currency ?? null,
      payment?.amount.toString() ?? null,
      payment
        ? JSON.stringify(
            Object.fromEntries(Object.entries(payment.components).map(([name, amount]) => [name, amount.toString()])),
          )
        : null,
    ],
  );
  return true;
}

/** A request's draw as the ledger holds it; undefined when it drew nothing. */
export async function getSponsorDraw(db: Queryable, requestId: string): Promise<SponsorDraw | undefined> {
  const { rows } = await db.query<{
    integrator: string;
    amount_micro_usd: string;
    chain_id: string | null;
    currency: string | null;
    amount: string | null;
    components: Record<string, string> | null;
  }>(
    `SELECT integrator, amount_micro_usd, chain_id, currency, amount, components
       FROM crossfill.sponsor_ledger WHERE kind = 'draw' AND request_id = $1`,
    [requestId],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    integrator: row.integrator,
    requestId,
    amountMicroUsd: BigInt(row.amount_micro_usd),
    ...(row.amount !== null && row.components !== null
      ? {
          payment: {
            chainId: Number(row.chain_id),
            currency: row.currency!,
            amount: BigInt(row.amount),
            components: Object.fromEntries(
              Object.entries(row.components).map(([name, amount]) => [name, BigInt(amount)]),
            ),
          },
        }
      : {}),
  };
}
