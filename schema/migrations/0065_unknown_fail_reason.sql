-- A failed or refunded request's record shows UNKNOWN when no reason was recorded; store it, so the listing's
-- failReason=UNKNOWN filter and requestStats' FAIL_REASON groups agree with the records (schema/transitionRequest.ts
-- writes it from now on).
UPDATE crossfill.requests SET fail_reason = 'UNKNOWN' WHERE status IN ('failure', 'refund') AND fail_reason IS NULL;
