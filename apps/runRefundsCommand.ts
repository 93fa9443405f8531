import { parseArgs } from "node:util";
import type pg from "pg";
import { failCommand } from "./failCommand.js";
import { settleRefund } from "../jobs/settleRefund.js";
import { type RefundStatus, listRefundsByStatus, requeueRefund } from "../schema/refunds.js";
import { type UnmatchedRefundStatus, listUnmatchedRefunds } from "../schema/unmatchedRefunds.js";
import { anyAddressKey, anyTransactionHash } from "../src/chains/vmFamilies.js";

export const REFUNDS_USAGE = `usage: crossfill refunds <command>
  list [--status manual,unrefundable,queued,sent]   refunds that need an operator (default: manual,unrefundable)
  retry <refundId> [--to <address>]                 queue a stuck refund again, optionally to another recipient
  settle <refundId> --tx <hash> [--note <text>]     record a refund paid by hand; its request moves to refund
  unmatched [--status queued,sent,confirmed,unrefundable,manual]
                                                    Bitcoin deposits that named no request and their refunds (default: all)`;

const UNMATCHED_STATUSES: readonly UnmatchedRefundStatus[] = ["queued", "sent", "confirmed", "unrefundable", "manual"];

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
  if (command === "unmatched") {
    const statuses = values.status === undefined ? [] : values.status.split(",");
    const unknown = statuses.filter((status) => !UNMATCHED_STATUSES.includes(status as UnmatchedRefundStatus));
    if (unknown.length) return failCommand(print, `unknown status: ${unknown.join(", ")}`);
    for (const refund of await listUnmatchedRefunds(pool, statuses as UnmatchedRefundStatus[]))
      print(
        JSON.stringify({
          chainId: refund.chainId,
          depositTxHash: refund.txHash,
          depositPosition: refund.position,
          orderId: refund.orderId,
          depositor: refund.recipient,
          currency: refund.currency,
          deposited: refund.deposited.toString(),
          status: refund.status,
          amount: refund.amount?.toString() ?? null,
          fee: refund.fee?.toString() ?? null,
          refundTxHash: refund.refundTxHash,
          refundFailReason: refund.refundFailReason,
          note: refund.note,
        }),
      );
    return 0;
  }
  if (command === "retry" && refundId) {
    if (values.to !== undefined && anyAddressKey(values.to) === undefined)
      return failCommand(print, `--to is not an address: ${values.to}`);
    if (!(await requeueRefund(pool, refundId, values.to)))
      return failCommand(print, `refund ${refundId} is not stuck (manual or unrefundable)`);
    print(`refund ${refundId} queued again${values.to ? ` to ${values.to}` : ""}; a running worker sends it`);
    return 0;
  }
  if (command === "settle" && refundId) {
    const tx = values.tx && anyTransactionHash(values.tx);
    if (!tx) return failCommand(print, "--tx <transaction hash> is required");
    const result = await settleRefund(pool, refundId, tx, values.note ?? "settled by hand");
    if (!result.settled) return failCommand(print, `refund ${refundId} is not stuck (manual or unrefundable)`);
    print(`refund ${refundId} settled with ${values.tx}; request ${result.requestId}`);
    return 0;
  }
  print(REFUNDS_USAGE);
  return 2;
}
