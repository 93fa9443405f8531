import type { ChainAdapters } from "../chains/chainAdapters.js";
import { currencyKey } from "../chains/currencyKey.js";

export type SolverInventory = { available(chainId: number, currency: string): Promise<bigint> };

export type SolverInventoryOptions = {
  /** How long one read serves quotes. */
  ttlMs?: number;
  /** What paid, unfilled requests owe of the currency (schema/solverBalances owedBySolver); nothing when absent. */
  owed?: (chainId: number, currency: string) => Promise<bigint>;
};

/**
 * What the solver can still promise: its live balance less what requests already paid and not yet filled owe of it.
 * A quote reserves nothing (quotes are free: reserving would let anyone lock the inventory by quoting); a deposit
 * does, from the moment it is seen. Cached for a moment: quotes are hot and both change only when a block lands.
 */
export function createSolverInventory(adapters: ChainAdapters, options: SolverInventoryOptions = {}): SolverInventory {
  const ttlMs = options.ttlMs ?? 1000;
  const cache = new Map<string, { value: Promise<bigint>; at: number }>();
  const read = async (chainId: number, currency: string) => {
    const adapter = adapters.quoter(chainId);
    const [balance, owed] = await Promise.all([
      adapter.balanceOf(adapter.solverAddress, currency),
      options.owed?.(chainId, currency) ?? 0n,
    ]);
    return balance > owed ? balance - owed : 0n;
  };
  return {
    available(chainId, currency) {
      // Keyed as the chain's family compares currencies: EVM in lower case, Solana's base58 mints as written.
      const quoter = adapters.quoterOf(chainId);
      const key = `${chainId}:${quoter ? currencyKey(quoter, currency) : currency}`;
      const hit = cache.get(key);
      if (hit && Date.now() - hit.at < ttlMs) return hit.value;
      const value = read(chainId, currency);
      cache.set(key, { value, at: Date.now() });
      value.catch(() => cache.delete(key));
      return value;
    },
  };
}
