import type { Queryable } from "./queryable.js";

export type ChainSwitch = {
  chainId: number;
  disabled: boolean;
  /** Decimal USD; null when the chain takes quotes of any size. */
  partialDisableLimitUsd: string | null;
  reason: string | null;
  updatedAt: Date;
};

type ChainSwitchRow = {
  chain_id: string;
  disabled: boolean;
  partial_disable_limit_usd: string | null;
  reason: string | null;
  updated_at: Date;
};

const toSwitch = (row: ChainSwitchRow): ChainSwitch => ({
  chainId: Number(row.chain_id),
  disabled: row.disabled,
  partialDisableLimitUsd: row.partial_disable_limit_usd,
  reason: row.reason,
  updatedAt: row.updated_at,
});

/** Sets what is given of a chain's switches, keeping the rest. */
export async function setChainSwitch(
  db: Queryable,
  chainId: number,
  change: { disabled?: boolean; partialDisableLimitUsd?: string | null; reason?: string | null },
): Promise<ChainSwitch> {
  const { rows } = await db.query<ChainSwitchRow>(
    `INSERT INTO crossfill.chain_switches AS s (chain_id, disabled, partial_disable_limit_usd, reason)
     VALUES ($1, coalesce($2, false), CASE WHEN $3 THEN $4::numeric END, CASE WHEN $5 THEN $6 END)
     ON CONFLICT (chain_id) DO UPDATE SET
       disabled = coalesce($2, s.disabled),
       partial_disable_limit_usd = CASE WHEN $3 THEN $4::numeric ELSE s.partial_disable_limit_usd END,
       reason = CASE WHEN $5 THEN $6 ELSE s.reason END,
       updated_at = now()
     RETURNING *`,
    [
      chainId,
      change.disabled ?? null,
      change.partialDisableLimitUsd !== undefined,
      change.partialDisableLimitUsd ?? null,
      change.reason !== undefined,
      change.reason ?? null,
    ],
  );
  return toSwitch(rows[0]);
}

export async function listChainSwitches(db: Queryable): Promise<ChainSwitch[]> {
  const { rows } = await db.query<ChainSwitchRow>("SELECT * FROM crossfill.chain_switches ORDER BY chain_id");
  return rows.map(toSwitch);
}
