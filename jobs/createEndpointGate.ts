/** How a worker process shares its webhook slots among endpoints (WEBHOOK_CONCURRENCY_PER_ENDPOINT, WEBHOOK_BREAKER_*). */
export type EndpointGatePolicy = {
  /** Attempts in flight to one endpoint at once. */
  concurrency: number;
  /** Failed attempts in a row that open the endpoint's breaker. */
  breakerFailures: number;
  /** How long an open breaker skips the endpoint before one probe is let through. */
  breakerCooldownMs: number;
};

export const DEFAULT_ENDPOINT_GATE_POLICY: EndpointGatePolicy = {
  concurrency: 4,
  breakerFailures: 5,
  breakerCooldownMs: 30_000,
};

/** Leave to post; `done` says how the attempt went (2xx or not) and frees the slot. */
export type EndpointPass = { done(delivered: boolean): void };
/** Not now: the attempt waits until then without being spent. */
export type EndpointWait = { waitUntil: number; reason: "busy" | "breaker open" };

type Endpoint = {
  inFlight: number;
  failures: number;
  /** 0 while closed; while open, when the next probe may go. */
  openUntil: number;
  probing: boolean;
  /** The last attempt's duration: how long a busy endpoint's slots stay taken, roughly. */
  lastMs: number;
};

// A busy endpoint's waiting attempts come back after about one attempt's time, within these bounds.
const MIN_BUSY_WAIT_MS = 250;
const MAX_BUSY_WAIT_MS = 5_000;

/**
 * Per endpoint, in this process: at most `concurrency` attempts in flight (a slow receiver holds that many of the
 * worker's slots, not all of them), and a circuit breaker: after `breakerFailures` failed attempts in a row the
 * endpoint is skipped for `breakerCooldownMs`, then a single probe decides (delivered: closed; failed: open again).
 * Waiting attempts are handed back with a time to come back, never dropped.
 */
export function createEndpointGate(policy: EndpointGatePolicy, now: () => number = Date.now) {
  const endpoints = new Map<string, Endpoint>();
  const jitter = (ms: number) => Math.round(ms * (1 + Math.random() * 0.5));
  return {
    enter(endpoint: string): EndpointPass | EndpointWait {
      const at = now();
      let state = endpoints.get(endpoint);
      if (!state)
        endpoints.set(endpoint, (state = { inFlight: 0, failures: 0, openUntil: 0, probing: false, lastMs: 0 }));
      const open = state.openUntil !== 0;
      // About one attempt's time: when a busy endpoint's slot, or an open one's probe, is likely done.
      const oneAttempt = at + jitter(Math.min(MAX_BUSY_WAIT_MS, Math.max(MIN_BUSY_WAIT_MS, state.lastMs)));
      if (open && at < state.openUntil) return { waitUntil: state.openUntil + jitter(100), reason: "breaker open" };
      if (open && state.probing) return { waitUntil: oneAttempt, reason: "breaker open" };
      if (!open && state.inFlight >= policy.concurrency) return { waitUntil: oneAttempt, reason: "busy" };
      const probe = open;
      const entry = state;
      entry.inFlight += 1;
      if (probe) entry.probing = true;
      const started = at;
      let finished = false;
      return {
        done(delivered) {
          if (finished) return;
          finished = true;
          const end = now();
          entry.inFlight -= 1;
          entry.lastMs = end - started;
          if (probe) entry.probing = false;
          if (delivered) {
            entry.failures = 0;
            entry.openUntil = 0;
          } else {
            entry.failures += 1;
            if (probe || entry.failures >= policy.breakerFailures) entry.openUntil = end + policy.breakerCooldownMs;
          }
          // A healthy idle endpoint needs no memory.
          if (entry.inFlight === 0 && entry.failures === 0 && endpoints.get(endpoint) === entry)
            endpoints.delete(endpoint);
        },
      };
    },
  };
}
export type EndpointGate = ReturnType<typeof createEndpointGate>;
