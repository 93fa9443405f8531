import type pg from "pg";
import type { Logger } from "pino";
import type { SweepableDeposit } from "../schema/depositSweeps.js";
import type { ChainRegistry } from "../src/chains/chainRegistry.js";
import type { PriceSource } from "../src/pricing/priceSource.js";

/** What a reconcile pass (reconcile, reconcileDeposits, reconcileFillsAndRefunds) runs with. */
export type ReconcileDeps = {
  pool: pg.Pool;
  onchainSchema: string;
  /**
   * Queues a fill at once; with `key`, as a job of its own for that key (a deposit mined after it was applied from
   * the mempool), so a fill job already run for the request in the same requeue window does not swallow it.
   */
  enqueueFill: (requestId: string, options?: { key: string }) => Promise<void>;
  enqueueRefund: (refundId: string) => Promise<void>;
  /** Sweeps of deposit addresses; absent where no adapter holds their key (nothing is swept). */
  enqueueSweep?: (deposit: SweepableDeposit) => Promise<void>;
  /** Re-price late deposits of quotes that allowed late payment. */
  registry: ChainRegistry;
  prices: PriceSource;
  logger: Logger;
};
