import type { QuotedAppFee } from "../src/domain/earnedAppFees.js";
import type { Queryable } from "./queryable.js";

export type AppFeeEarning = { requestId: string; chainId: number; currency: string; fees: readonly QuotedAppFee[] };

/** Credits what a filled request's recipients earned; a second call for the same request adds nothing. */
export async function creditAppFees(db: Queryable, earning: AppFeeEarning): Promise<number> {
  if (earning.fees.length === 0) return 0;
  const result = await db.query(
    `INSERT INTO crossfill.app_fee_earnings (request_id, recipient, chain_id, currency, bps, amount, amount_usd)
     SELECT $1, lower(f.recipient), $2, lower($3), f.bps, f.amount, f.amount_usd
       FROM unnest($4::text[], $5::int[], $6::numeric[], $7::numeric[]) AS f(recipient, bps, amount, amount_usd)
     ON CONFLICT (request_id, recipient) DO NOTHING`,
    [
      earning.requestId,
      earning.chainId,
      earning.currency,
      earning.fees.map((fee) => fee.recipient),
      earning.fees.map((fee) => Number(fee.bps)),
      earning.fees.map((fee) => fee.amount),
      earning.fees.map((fee) => fee.amountUsd),
    ],
  );
  return result.rowCount ?? 0;
}
