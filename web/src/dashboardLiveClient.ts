import type { Client } from "graphql-ws";
import { createLiveClient } from "./liveClient";
import { sessionKey } from "./sessionKey";

let live: { key: string; client: Client } | undefined;

// Closing a connection the gateway refused (4403: a key revoked meanwhile) rejects with that close: nothing to do.
const close = (client: Client) => Promise.resolve(client.dispose()).catch(() => undefined);

// Signing out (or a key the API stopped accepting) closes the signed-in connection at once.
sessionKey.watch(() => {
  if (live && live.key !== sessionKey.get()) {
    void close(live.client);
    live = undefined;
  }
});

/** The dashboard's graphql-ws connection, signed in with the tab's key; none when signed out. */
export function dashboardLiveClient(): Client | undefined {
  const key = sessionKey.get();
  if (!key) return undefined;
  if (live?.key !== key) {
    if (live) void close(live.client);
    live = { key, client: createLiveClient(key) };
  }
  return live.client;
}
