import { parseArgs } from "node:util";
import type pg from "pg";
import { listOpenOperatorAlerts, resolveOperatorAlert } from "../schema/operatorAlerts.js";
import { failCommand } from "./failCommand.js";

export const ALERTS_USAGE = `usage: crossfill alerts <command>
  list                                  open alerts (JSON lines): money the service could not decide about alone
  resolve <alertId> --note <text>       record what was done about one (docs/OPERATIONS.md, "Operator alerts")`;

/** The operator's alert commands; returns the process exit code. */
export async function runAlertsCommand(pool: pg.Pool, argv: string[], print: (line: string) => void): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { note: { type: "string" } },
  });
  const [command, alertId] = positionals;
  if (command === "list") {
    for (const alert of await listOpenOperatorAlerts(pool))
      print(
        JSON.stringify({
          id: alert.id,
          kind: alert.kind,
          subject: alert.subject,
          createdAt: alert.createdAt.toISOString(),
          details: alert.details,
        }),
      );
    return 0;
  }
  if (command === "resolve" && alertId) {
    if (!values.note) return failCommand(print, "--note <what was done> is required");
    if (!/^\d+$/.test(alertId) || !(await resolveOperatorAlert(pool, alertId, values.note)))
      return failCommand(print, `alert ${alertId} is not open`);
    print(`alert ${alertId} resolved`);
    return 0;
  }
  print(ALERTS_USAGE);
  return 2;
}
