import type { Queryable } from "./queryable.js";
import { storedAddressSql } from "./storedAddress.js";

/** One currency of the solver on one chain, as read from the chain. */
export type SolverBalance = {
  chainId: number;
  /** The currency's id as the chain registry shows it (the native one at its family's native id). */
  currency: string;
  symbol: string;
  decimals: number;
  solver: string;
  balance: bigint;
  readAt: Date;
};

/** What the solver holds and what open requests owe of it. */
export type SolverInventoryRow = SolverBalance & { owed: bigint };

// Requests whose deposit was seen and whose fill has not landed: their outputs are the solver's to pay.
const OWING = "status IN ('depositing', 'pending', 'submitted')";

/** Stores the balances read (newest wins per chain and currency). */
export async function saveSolverBalances(db: Queryable, balances: readonly SolverBalance[]): Promise<void> {
  if (balances.length === 0) return;
  const column = <T>(value: (balance: SolverBalance) => T) => balances.map(value);
  await db.query(
    `INSERT INTO crossfill.solver_balances (chain_id, currency, symbol, decimals, solver, balance, read_at)
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::int[], $5::text[], $6::numeric[], $7::timestamptz[])
     ON CONFLICT (chain_id, currency) DO UPDATE
       SET symbol = excluded.symbol, decimals = excluded.decimals, solver = excluded.solver,
           balance = excluded.balance, read_at = excluded.read_at
     WHERE solver_balances.read_at <= excluded.read_at`,
    [
      column((b) => b.chainId),
      column((b) => b.currency),
      column((b) => b.symbol),
      column((b) => b.decimals),
      column((b) => b.solver),
      column((b) => b.balance.toString()),
      column((b) => b.readAt.toISOString()),
    ],
  );
}

/** Every stored balance with what open requests owe of it, by chain and symbol. */
export async function listSolverInventory(db: Queryable): Promise<SolverInventoryRow[]> {
  const { rows } = await db.query(
    `SELECT b.chain_id, b.currency, b.symbol, b.decimals, b.solver, b.balance::text, b.read_at,
            coalesce((SELECT sum(coalesce(r.fill_amount, r.amount_out)) FROM crossfill.requests r
                       WHERE r.destination_chain_id = b.chain_id
                         AND ${storedAddressSql("r.destination_currency")} = ${storedAddressSql("b.currency")}
                         AND r.${OWING}), 0)::text AS owed
       FROM crossfill.solver_balances b
      ORDER BY b.chain_id, b.symbol`,
  );
  return rows.map((row) => ({
    chainId: Number(row.chain_id),
    currency: row.currency,
    symbol: row.symbol,
    decimals: row.decimals,
    solver: row.solver,
    balance: BigInt(row.balance),
    readAt: row.read_at,
    owed: BigInt(row.owed),
  }));
}

/**
 * The currencies the solver held some of at its last read, by chain, as stored addresses (EVM lower case, base58
 * mints as written: their case is part of the key); chains never read are absent.
 */
export async function listHeldSolverCurrencies(db: Queryable): Promise<Map<number, string[]>> {
  const { rows } = await db.query<{ chain_id: string; currency: string }>(
    `SELECT chain_id, ${storedAddressSql("currency")} AS currency FROM crossfill.solver_balances
      WHERE balance > 0 ORDER BY chain_id, currency`,
  );
  const held = new Map<number, string[]>();
  for (const row of rows) held.set(Number(row.chain_id), [...(held.get(Number(row.chain_id)) ?? []), row.currency]);
  return held;
}

/** What open requests owe in one currency of one chain (0 when none). */
export async function owedBySolver(db: Queryable, chainId: number, currency: string): Promise<bigint> {
  const { rows } = await db.query(
    `SELECT coalesce(sum(coalesce(fill_amount, amount_out)), 0)::text AS owed FROM crossfill.requests
      WHERE destination_chain_id = $1 AND ${storedAddressSql("destination_currency")} = ${storedAddressSql("$2")}
        AND ${OWING}`,
    [chainId, currency],
  );
  return BigInt(rows[0].owed);
}
