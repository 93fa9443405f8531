import type pg from "pg";
import type { Logger } from "pino";
import { listSolverInventory } from "../schema/solverBalances.js";
import { listSponsorBalances } from "../schema/sponsorLedger.js";
import { openRefundCounts } from "../schema/openRefundCounts.js";
import { statusTransitionOf } from "../schema/statusTransitions.js";
import type { Metrics } from "../src/metrics/createMetrics.js";
import { observeOpenRefunds } from "../src/metrics/observeOpenRefunds.js";
import { observeSolverInventory } from "../src/metrics/observeSolverInventory.js";
import { observeSponsorBalances } from "../src/metrics/observeSponsorBalances.js";
import { observeStatusTransitions } from "../src/metrics/observeStatusTransitions.js";
import { type RunningNotifier, startNotifier } from "./startNotifier.js";

/**
 * Every status change into the metrics, read from the status_events outbox under a cursor of its own ("metrics"):
 * whichever job made the change, and each change counted by one worker of many (sum the workers' series). The open
 * refunds are counted at each scrape.
 */
export async function observeStatusEvents(
  deps: { pool: pg.Pool; logger: Logger },
  metrics: Metrics,
): Promise<RunningNotifier> {
  const observe = observeStatusTransitions(metrics);
  observeOpenRefunds(metrics, () => openRefundCounts(deps.pool));
  observeSolverInventory(metrics, () => listSolverInventory(deps.pool));
  observeSponsorBalances(metrics, () => listSponsorBalances(deps.pool));
  return startNotifier({
    pool: deps.pool,
    cursorName: "metrics",
    logger: deps.logger,
    publish: async () => undefined,
    // The rows the pass read carry the moves: counted from that one read of the outbox.
    publishEvents: async (events) => observe(events.map(statusTransitionOf)),
  });
}
