import type pg from "pg";
import type { Logger } from "pino";
import type { StuckFillPolicy } from "../src/chains/adapter.js";
import type { ChainAdapters } from "../src/chains/chainAdapters.js";
import type { ChainRegistry } from "../src/chains/chainRegistry.js";
import type { FillLedger } from "../src/chains/fillLedger.js";
import type { PriceSource } from "../src/pricing/priceSource.js";
import type { ReceiptConfirmer } from "./createReceiptConfirmer.js";

export const DEFAULT_STUCK_FILL_POLICY: StuckFillPolicy = {
  bumpAfterMs: 30_000,
  maxBumps: 3,
  maxBroadcastFailures: 10,
};

export type FillDeps = {
  pool: pg.Pool;
  adapters: ChainAdapters;
  registry: ChainRegistry;
  enqueueRefund: (refundId: string) => Promise<void>;
  /** Runs the fill again later: while its deposit gathers confirmations. */
  enqueueFill: (requestId: string, options: { delayMs: number; key: string }) => Promise<void>;
  prices: PriceSource;
  /** When a sent fill that is not mined is re-priced, and finally cancelled. */
  stuckFill?: StuckFillPolicy;
  /** Honour DEBUG_FORCE_REFUND_REFERRER: on the devnet only. */
  debugReferrers: boolean;
  logger: Logger;
  /** `success` on the fill's own receipt; without it, success waits for the indexed fill. */
  receipts?: ReceiptConfirmer;
};

/** What the phases of one fill share: the worker's dependencies, the fill ledger over its pool, the stuck policy. */
export type FillContext = FillDeps & { ledger: FillLedger; policy: StuckFillPolicy };
