import type { StoredRequest } from "../schema/requests.js";
import { failFill } from "./failFill.js";
import type { FillContext } from "./fillDeps.js";

/** A referrer that makes the devnet's solver refuse the fill, so integrators can exercise their refund handling. */
export const DEBUG_FORCE_REFUND_REFERRER = "debug-force-refund";

/**
 * Whether a request whose deposit is final is still filled: not past its fill window, and (on the devnet) not one
 * its referrer asks to see refunded. Undefined when it is; else the job's result, the request failed.
 */
export async function admitFill(
  context: FillContext,
  request: StoredRequest,
  windowEnd: number,
): Promise<string | undefined> {
  if (Date.now() > windowEnd) {
    return failFill(
      context,
      request,
      "PROTOCOL_DEADLINE_EXPIRED",
      { message: `not filled by ${new Date(windowEnd).toISOString()}, the end of its fill window` },
      { sent: false },
    );
  }
  if (context.debugReferrers && request.referrer === DEBUG_FORCE_REFUND_REFERRER) {
    return failFill(
      context,
      request,
      "MANUAL_ADMIN_REFUND",
      { message: `the devnet solver refuses fills with referrer ${DEBUG_FORCE_REFUND_REFERRER}` },
      { sent: false },
    );
  }
  return undefined;
}
