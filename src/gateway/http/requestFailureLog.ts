import type { Logger } from "pino";
import { oncePerPeriod } from "../../runtime/oncePerPeriod.js";
import { domainErrorOf } from "./domainErrorOf.js";

/** How often one expected, retryable failure (a code and its subject) is logged while it lasts. */
export const EXPECTED_FAILURE_LOG_PERIOD_MS = 60_000;

/**
 * What the gateway logs of a request that failed on our side (a caller's 4xx is not logged). An internal error (500)
 * is an error with its stack, each time. An expected, retryable outcome the caller is told to retry (503
 * PRICE_FETCH_FAILED while a feed is stale, SERVICE_UNAVAILABLE, an upstream node's 502/504) answers every request
 * for as long as it lasts: a warning without a stack, once per code and subject (the currency, else the message) per
 * period, with how many were not logged since the last.
 */
export function createRequestFailureLog(
  logger: Logger,
  options: { periodMs?: number; now?: () => number } = {},
): (error: unknown, where: Record<string, unknown>) => void {
  const shouldReport = oncePerPeriod({
    periodMs: options.periodMs ?? EXPECTED_FAILURE_LOG_PERIOD_MS,
    ...(options.now ? { now: options.now } : {}),
  });
  return (error, where) => {
    const domainError = domainErrorOf(error);
    if (domainError && domainError.status < 500) return;
    if (!domainError || !domainError.retryable) {
      logger.error({ err: error, ...where }, "request failed");
      return;
    }
    const details = domainError.details ?? {};
    const subject = String(details.currency ?? details.currencies ?? domainError.message);
    const skipped = shouldReport(`${domainError.errorCode}\u0000${subject}`);
    if (skipped === undefined) return;
    const cause = domainError.cause instanceof Error ? domainError.cause.message : undefined;
    logger.warn(
      {
        errorCode: domainError.errorCode,
        subject,
        reason: domainError.message,
        ...(cause ? { cause } : {}),
        ...where,
        notLoggedSinceLast: skipped,
      },
      `request refused with ${domainError.errorCode} (retryable); logged once a minute while it lasts`,
    );
  };
}
