import type { Queryable } from "./queryable.js";

/** Why a failed request's refund cannot run on its own; shown with the request until it is settled. */
export async function setRefundFailReason(db: Queryable, requestId: string, reason: string | null): Promise<void> {
  await db.query("UPDATE crossfill.requests SET refund_fail_reason = $2, updated_at = now() WHERE id = $1", [
    requestId,
    reason,
  ]);
}
