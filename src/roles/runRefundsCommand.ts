import { parseArgs } from "node:util";
import type pg from "pg";
import { settleRefund } from "../../jobs/settleRefund.js";
import { type RefundStatus, listRefundsByStatus, requeueRefund } from "../../schema/refunds.js";
import { anyAddressKey, anyTransactionHash } from "../chains/vmFamilies.js";

export const REFUNDS_USAGE = `usage: crossfill refunds <command>
  list [--status manual,unrefundable,queued,sent]   refunds that need an operator (default: manual,unrefundable)
  retry <refundId> [--to <address>]                 queue a stuck refund again, optionally to another recipient
  settle <refundId> --tx <hash> [--note <text>]     record a refund paid by hand; its request moves to refund`;

/** The operator's refund commands; returns the process exit code. */
export async function runRefundsCommand(pool: pg.Pool, argv: string[], print: (line: string) => void): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { status: { type: "string" }, to: { type: "string" }, tx: { type: "string" }, note: { type: "string" } },
  });
  const [command, refundId] = positionals;
  if (command === "list") {
    const statuses = (values.status ?? "manual,unrefundable").split(",") as RefundStatus[];
    for (const refund of await listRefundsByStatus(pool, statuses)) {
      print(
        JSON.stringify({
          id: refund.id,
          requestId: refund.requestId,
          status: refund.status,
          reason: refund.reason,
          refundFailReason: refund.refundFailReason,
          chainId: refund.chainId,
          currency: refund.currency,
          deposited: refund.deposited.toString(),
          recipient: refund.recipient,
          depositTxHash: refund.depositTxHash,
          note: refund.note,
        }),
      );
    }
    return 0;
  }
  if (command === "retry" && refundId) {
    if (values.to !== undefined && anyAddressKey(values.to) === undefined)
      return fail(print, `--to is not an address: ${values.to}`);
    if (!(await requeueRefund(pool, refundId, values.to)))
      return fail(print, `refund ${refundId} is not stuck (manual or unrefundable)`);
    print(`refund ${refundId} queued again${values.to ? ` to ${values.to}` : ""}; a running worker sends it`);
    return 0;
  }
  if (command === "settle" && refundId) {
    const tx = values.tx && anyTransactionHash(values.tx);
    if (!tx) return fail(print, "--tx <transaction hash> is required");
    const result = await settleRefund(pool, refundId, tx, values.note ?? "settled by hand");
    if (!result.settled) return fail(print, `refund ${refundId} is not stuck (manual or unrefundable)`);
    print(`refund ${refundId} settled with ${values.tx}; request ${result.requestId}`);
    return 0;
  }
  print(REFUNDS_USAGE);
  return 2;
}

function fail(print: (line: string) => void, message: string): number {
  print(`error: ${message}`);
  return 1;
}
