import { type Client, createClient } from "graphql-ws";

let client: Client | undefined;

/** The page's one graphql-ws connection to `/graphql` on the same host, opened on first use, retried when lost. */
export function liveClient(): Client {
  client ??= createClient({
    url: `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/graphql`,
    retryAttempts: Infinity,
    shouldRetry: () => true,
  });
  return client;
}
