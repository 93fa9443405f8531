import type { PollerHealth } from "../../indexers/poller/startPoller.js";
import type { ReadinessCheck } from "../../src/health/readinessProbe.js";

/**
 * Each poller's chain answered its last pass: the poller reads the node on its own schedule, so readiness reports
 * that instead of asking the node again. A poller whose newest pass failed (or that has not read yet) is not ready.
 */
export function pollerReadiness(health: () => PollerHealth[]): ReadinessCheck[] {
  return health().map(({ chainId }) => ({
    name: `chain ${chainId}`,
    check: async () => {
      const poller = health().find((candidate) => candidate.chainId === chainId)!;
      if (!poller.lastSuccessAt) throw new Error("the poller has not read the chain yet");
      if (poller.lastError && poller.lastError.at >= poller.lastSuccessAt)
        throw new Error(`the poller's last read failed at ${poller.lastError.at.toISOString()}`);
      return `head ${poller.head}, lag ${poller.lag}`;
    },
  }));
}
