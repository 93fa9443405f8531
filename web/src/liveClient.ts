import { type Client, createClient } from "graphql-ws";

let client: Client | undefined;

/**
 * A graphql-ws connection to `/graphql` on the same host, opened on first use, retried when lost; with `apiKey` it
 * signs in (connectionParams) and gives up once the gateway refuses the key (4403: revoked meanwhile).
 */
export function createLiveClient(apiKey?: string): Client {
  return createClient({
    url: `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/graphql`,
    connectionParams: apiKey ? { apiKey } : undefined,
    retryAttempts: Infinity,
    shouldRetry: (event) => !(apiKey && (event as { code?: number } | undefined)?.code === 4403),
  });
}

/** The explorer's one public (keyless) connection. */
export function liveClient(): Client {
  client ??= createLiveClient();
  return client;
}
