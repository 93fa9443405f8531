import type pg from "pg";
import type { Logger } from "pino";
import { type SolverBalance, saveSolverBalances } from "../schema/solverBalances.js";
import type { ChainAdapters } from "../src/chains/chainAdapters.js";
import type { ChainRegistry } from "../src/chains/chainRegistry.js";
import { coalesceRuns } from "../src/runtime/coalesceRuns.js";
import { repeatEvery } from "../src/runtime/repeatEvery.js";

/** How often the worker reads the solver's balances when no fill asks sooner. */
export const SOLVER_BALANCE_EVERY_MS = 30_000;

export type SolverBalanceReader = {
  /** Reads every balance again now (after a fill); calls while a read runs share the next one. */
  refresh(): Promise<void>;
  close(): Promise<void>;
};

/**
 * The solver's balance of every configured currency on every chain it fills on, read through each chain's adapter
 * and stored (crossfill.solver_balances) on a timer and whenever `refresh` asks. A chain whose node does not answer
 * keeps its last stored read (its read_at says how old) and is logged when its failure changes.
 */
export function startSolverBalanceReader(deps: {
  pool: pg.Pool;
  adapters: ChainAdapters;
  registry: ChainRegistry;
  logger: Logger;
  everyMs?: number;
  now?: () => Date;
}): SolverBalanceReader {
  const now = deps.now ?? (() => new Date());
  const failing = new Map<number, string>();
  const readChain = async (chainId: number): Promise<SolverBalance[]> => {
    const quoter = deps.adapters.quoter(chainId);
    const currencies = deps.registry.currencies(chainId);
    const balances = await Promise.all(
      currencies.map((currency) => quoter.balanceOf(quoter.solverAddress, currency.address)),
    );
    const readAt = now();
    return currencies.map((currency, index) => ({
      chainId,
      currency: currency.address,
      symbol: currency.symbol,
      decimals: currency.decimals,
      solver: quoter.solverAddress,
      balance: balances[index]!,
      readAt,
    }));
  };
  const read = coalesceRuns(async () => {
    const chains = deps.adapters.all("solver").map((solver) => solver.chain.id);
    const read = await Promise.all(
      chains.map(async (chainId) => {
        try {
          const balances = await readChain(chainId);
          if (failing.delete(chainId)) deps.logger.info({ chainId }, "solver balances read again");
          return balances;
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          if (failing.get(chainId) !== message)
            deps.logger.warn({ chainId, err: error }, "reading the solver's balances failed");
          failing.set(chainId, message);
          return [];
        }
      }),
    );
    await saveSolverBalances(deps.pool, read.flat());
  });
  const timer = repeatEvery(
    deps.everyMs ?? SOLVER_BALANCE_EVERY_MS,
    read,
    (error) => deps.logger.warn({ err: error }, "storing the solver's balances failed"),
    { firstAfterMs: 0 },
  );
  return {
    // A failed store is the timer's to report (once per new error), not each fill's.
    refresh: () => read().catch(() => undefined),
    close: () => timer.close(),
  };
}
