import { LogLevel, createClient } from "@relayprotocol/relay-sdk";
import { configureDynamicChains } from "@relayprotocol/relay-sdk/chain-utils";

/**
 * Points the official client, unmodified, at a stack's API (polling its status every 250 ms, giving up after
 * `maxPollingAttempts` polls) and loads the chains its GET /chains lists.
 */
export async function connectRelayClient(apiUrl: string, maxPollingAttempts = 120): Promise<void> {
  createClient({
    baseApiUrl: apiUrl,
    source: "crossfill-tests",
    pollingInterval: 250,
    maxPollingAttemptsBeforeTimeout: maxPollingAttempts,
    logLevel: LogLevel.None,
  });
  await configureDynamicChains();
}
