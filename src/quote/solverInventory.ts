import type { ChainAdapters } from "../chains/chainAdapters.js";

export type SolverInventory = { available(chainId: number, currency: string): Promise<bigint> };

/**
 * The solver's live balances, which bound what it quotes. Cached for a moment: quotes are hot and a
 * balance changes only when a block lands.
 */
export function createSolverInventory(adapters: ChainAdapters, ttlMs = 1000): SolverInventory {
  const cache = new Map<string, { value: Promise<bigint>; at: number }>();
  return {
    available(chainId, currency) {
      const key = `${chainId}:${currency.toLowerCase()}`;
      const hit = cache.get(key);
      if (hit && Date.now() - hit.at <= ttlMs) return hit.value;
      const adapter = adapters.quoter(chainId);
      const value = adapter.balanceOf(adapter.solverAddress, currency);
      cache.set(key, { value, at: Date.now() });
      value.catch(() => cache.delete(key));
      return value;
    },
  };
}
