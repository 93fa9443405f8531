/**
 * The pipeline benchmark's client of the database, a child process (`fork`) so the load's event loop (quotes,
 * signing, receipts) never delays its reading: it polls every 10 ms for rows it has not seen and answers, when told
 * to stop, with the local wall-clock time each was first returned — what a client reading Postgres sees, after
 * commit. Only recent rows each time, so its own cost stays small and does not grow with the run: status_events
 * past a cursor that trails the newest id it saw `cursorLagMs` before (ids are taken at insert and committed out of
 * order, so a cursor at the newest id would skip rows; a deposit's or fill's transaction commits within a few hundred
 * ms), Ponder's deposit and fill rows of blocks from the last 10 s.
 */
import pg from "pg";
import { wallClockMs } from "./wallClock.js";

export type VisibilityPollCommand =
  | { type: "start"; databaseUrl: string; viewsSchema: string; pollEveryMs: number; cursorLagMs: number }
  | { type: "stop" };

export type VisibilityPollMessage =
  | { type: "started" }
  /** Keys `<requestId>:<status>`, `deposit:<txHash>` and `fill:<txHash>`, with the first time seen (ms). */
  | { type: "report"; visible: Array<[string, number]> }
  | { type: "failed"; message: string };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const reply = (message: VisibilityPollMessage) => process.send!(message);

let polling = false;

async function poll(command: Extract<VisibilityPollCommand, { type: "start" }>): Promise<void> {
  const reader = new pg.Client({ connectionString: command.databaseUrl });
  await reader.connect();
  const visible = new Map<string, number>();
  const seenIds: Array<{ id: bigint; atMs: number }> = [];
  let cursor = 0n;
  polling = true;
  reply({ type: "started" });
  try {
    while (polling) {
      const { rows } = await reader.query<{ id: string | null; key: string }>(
        `SELECT id::text, request_id || ':' || to_status AS key FROM crossfill.status_events WHERE id > $1
         UNION ALL SELECT NULL, 'deposit:' || tx_hash FROM ${command.viewsSchema}.deposit WHERE timestamp >= $2
         UNION ALL SELECT NULL, 'fill:' || tx_hash FROM ${command.viewsSchema}.fill WHERE timestamp >= $2`,
        [cursor.toString(), Math.floor(wallClockMs() / 1000) - 10],
      );
      const now = wallClockMs();
      for (const row of rows) {
        if (visible.has(row.key)) continue;
        visible.set(row.key, now);
        if (row.id !== null) seenIds.push({ id: BigInt(row.id), atMs: now });
      }
      while (seenIds.length > 0 && seenIds[0]!.atMs < now - command.cursorLagMs) {
        const { id } = seenIds.shift()!;
        if (id > cursor) cursor = id;
      }
      await sleep(command.pollEveryMs);
    }
    reply({ type: "report", visible: [...visible] });
  } finally {
    await reader.end();
  }
}

process.on("message", (command: VisibilityPollCommand) => {
  if (command.type === "stop") {
    polling = false;
    return;
  }
  poll(command).catch((error: Error) => {
    reply({ type: "failed", message: error.message });
    process.exitCode = 1;
    process.disconnect();
  });
});
