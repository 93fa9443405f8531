import type { Queryable } from "./queryable.js";

/** What an operator must look at; each kind has its runbook in docs/OPERATIONS.md ("Operator alerts"). */
export type OperatorAlertKind =
  /** An indexed fill of a request already failed: its refund, if not yet signed, was dropped. */
  | "FILL_AFTER_FAILURE"
  /** An indexed fill of a request whose refund was signed already: the deposit may be paid out twice. */
  | "FILL_AND_REFUND"
  /** A fill not made by Crossfill's own attempts pays less than its request owes: the request is held, not succeeded. */
  | "SHORT_FILL"
  /** A sent refund's withdrawal reverted on-chain: the refund waits as MANUAL_REFUND_REQUIRED. */
  | "REFUND_REVERTED"
  /** A sent app-fee claim's withdrawal reverted on-chain: the claim failed and its amount is claimable again. */
  | "APP_FEE_CLAIM_REVERTED"
  /** A claim failed on its reverted payout, paid after all when a reorg mined that payout again: maybe paid twice. */
  | "APP_FEE_CLAIM_PAID_AFTER_REVERT";

export type OperatorAlert = {
  id: string;
  kind: OperatorAlertKind;
  subject: string;
  details: Record<string, unknown>;
  createdAt: Date;
  resolvedAt: Date | null;
  resolution: string | null;
};

/** Records an alert once per (kind, subject); true when it is new (a job run again raises nothing more). */
export async function raiseOperatorAlert(
  db: Queryable,
  alert: { kind: OperatorAlertKind; subject: string; details: Record<string, unknown> },
): Promise<boolean> {
  const result = await db.query(
    `INSERT INTO crossfill.operator_alerts (kind, subject, details) VALUES ($1, $2, $3)
     ON CONFLICT (kind, subject) DO NOTHING`,
    [
      alert.kind,
      alert.subject,
      JSON.stringify(alert.details, (_, value) => (typeof value === "bigint" ? value.toString() : value)),
    ],
  );
  return result.rowCount === 1;
}

/** Alerts not yet resolved, oldest first. */
export async function listOpenOperatorAlerts(db: Queryable): Promise<OperatorAlert[]> {
  const { rows } = await db.query<{
    id: string;
    kind: OperatorAlertKind;
    subject: string;
    details: Record<string, unknown>;
    created_at: Date;
    resolved_at: Date | null;
    resolution: string | null;
  }>("SELECT * FROM crossfill.operator_alerts WHERE resolved_at IS NULL ORDER BY id");
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    subject: row.subject,
    details: row.details,
    createdAt: row.created_at,
    resolvedAt: row.resolved_at,
    resolution: row.resolution,
  }));
}

/** An operator dealt with it: recorded with what they did. False when it was not open. */
export async function resolveOperatorAlert(db: Queryable, id: string, resolution: string): Promise<boolean> {
  const result = await db.query(
    "UPDATE crossfill.operator_alerts SET resolved_at = now(), resolution = $2 WHERE id = $1 AND resolved_at IS NULL",
    [id, resolution],
  );
  return result.rowCount === 1;
}
