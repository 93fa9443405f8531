/**
 * The subscriber side of `npm run bench -- push` (bench/pushBench.ts), in its own process: opens one graphql-ws connection per request
 * id read from stdin (JSON array), subscribes to `requestUpdated(id)`, and on SIGTERM prints, as JSON on
 * stdout, how many connected and the delivery latency of every update (receive time − publish time, ms).
 */
import { createClient } from "graphql-ws";
import WebSocket from "ws";

const url = process.argv[2];
const ids = JSON.parse(
  await new Promise<string>((resolve) => {
    let text = "";
    process.stdin.on("data", (chunk) => (text += chunk));
    process.stdin.on("end", () => resolve(text));
  }),
) as string[];

const latencies: number[] = [];
let connected = 0;
const clients = [];
for (let start = 0; start < ids.length; start += 250) {
  await Promise.all(
    ids.slice(start, start + 250).map(
      (id) =>
        new Promise<void>((resolve) => {
          const client = createClient({
            url,
            webSocketImpl: WebSocket,
            retryAttempts: 0,
            lazy: false,
            on: { connected: () => (connected++, resolve()) },
          });
          clients.push(client);
          client.subscribe<{ requestUpdated: { updatedAt: string } }>(
            {
              query:
                "subscription ($id: String!) { requestUpdated(id: $id) { eventId status updatedAt request { id status } } }",
              variables: { id },
            },
            {
              next: ({ data }) => latencies.push(Date.now() - Date.parse(data!.requestUpdated.updatedAt)),
              error: () => undefined,
              complete: () => undefined,
            },
          );
        }),
    ),
  );
}
process.stdout.write(`${JSON.stringify({ ready: connected })}\n`);
process.on("SIGTERM", () => {
  process.stdout.write(`${JSON.stringify({ connected, latencies })}\n`);
  process.exit(0);
});
