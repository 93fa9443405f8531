import { lookup as dnsLookup } from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { isPublicAddress } from "./isPublicAddress.js";

export const WEBHOOK_TIMEOUT_MS = 10_000;
/** How long a receiver may take to accept the connection (TCP, and TLS for https) before the attempt fails. */
export const WEBHOOK_CONNECT_TIMEOUT_MS = 3_000;

export type WebhookResponse = { statusCode: number } | { error: string };

// Resolves as usual but refuses a non-public answer: the check happens on the very address the socket
// connects to, so a name re-pointed at 127.0.0.1 after validation (DNS rebinding) is still refused.
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, "", 0);
    const list = addresses as unknown as Array<{ address: string; family: number }>;
    const refused = list.find((entry) => !isPublicAddress(entry.address));
    if (refused || list.length === 0)
      return callback(
        Object.assign(new Error(`refused non-public address ${refused?.address ?? "(none)"}`), { code: "EPUBLICONLY" }),
        "",
        0,
      );
    if ((options as { all?: boolean }).all)
      return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
    callback(null, list[0].address, list[0].family);
  });
};

export type WebhookPoster = {
  post(url: string, body: string, headers: Record<string, string>): Promise<WebhookResponse>;
  close(): void;
};

/** Posts webhooks over keep-alive connections; in production only to public addresses, checked at connect time. */
export function createWebhookPoster(options: {
  allowPrivate: boolean;
  timeoutMs?: number;
  connectTimeoutMs?: number;
}): WebhookPoster {
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const connectTimeoutMs = options.connectTimeoutMs ?? WEBHOOK_CONNECT_TIMEOUT_MS;
  const lookup = options.allowPrivate ? undefined : publicOnlyLookup;
  const httpAgent = new http.Agent({ keepAlive: true, maxSockets: 64, lookup } as http.AgentOptions);
  const httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 64, lookup } as https.AgentOptions);
  return {
    post(url, body, headers) {
      const target = new URL(url);
      const secure = target.protocol === "https:";
      if (!secure && !options.allowPrivate)
        return Promise.resolve({ error: "plain http is allowed on the devnet only" });
      // A literal IP never goes through lookup: check it here.
      const literal = target.hostname.replace(/^\[|\]$/g, "");
      if (!options.allowPrivate && /^[\d.]+$|:/.test(literal) && !isPublicAddress(literal))
        return Promise.resolve({ error: `refused non-public address ${literal}` });
      return new Promise((resolve) => {
        let settled = false;
        const finish = (result: WebhookResponse) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve(result);
        };
        const request = (secure ? https : http).request(
          target,
          {
            method: "POST",
            agent: secure ? httpsAgent : httpAgent,
            headers: {
              ...headers,
              "content-type": "application/json",
              "content-length": Buffer.byteLength(body),
              "user-agent": "Crossfill-Webhooks/1",
            },
          },
          (response) => {
            // The body is not needed; draining it frees the connection for the next delivery.
            response.resume();
            response.on("end", () => finish({ statusCode: response.statusCode ?? 0 }));
            response.on("error", (error) => finish({ error: error.message }));
          },
        );
        // The whole exchange, not only idle time, is bounded: a receiver trickling bytes is cut at 10 s too.
        const timer = setTimeout(() => {
          request.destroy(new Error(`timed out after ${timeoutMs} ms`));
        }, timeoutMs);
        // A receiver that does not accept the connection fails fast; a pooled keep-alive socket is connected already.
        request.on("socket", (socket) => {
          if (!socket.connecting) return;
          const connectTimer = setTimeout(
            () => request.destroy(new Error(`connect timed out after ${connectTimeoutMs} ms`)),
            connectTimeoutMs,
          );
          socket.once(secure ? "secureConnect" : "connect", () => clearTimeout(connectTimer));
          socket.once("close", () => clearTimeout(connectTimer));
        });
        request.on("error", (error) => finish({ error: error.message }));
        request.end(body);
      });
    },
    close() {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}
