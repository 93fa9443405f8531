import http from "node:http";
import type { AddressInfo } from "node:net";
import { webhookSignatureIsValid } from "./webhookSignatureIsValid.js";

export type ReceivedWebhook = { body: any; valid: boolean };
export type WebhookReceiver = { url: string; received: ReceivedWebhook[]; close(): void };

/**
 * A local HTTPS-less webhook endpoint (the devnet allows private URLs) that answers 204 and keeps every body in
 * arrival order, with whether its signature is valid for `apiKey`.
 */
export async function startWebhookReceiver(apiKey: string): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      const valid = webhookSignatureIsValid(
        apiKey,
        req.headers["x-signature-timestamp"] as string | undefined,
        raw,
        req.headers["x-signature-sha256"] as string | undefined,
      );
      received.push({ body: JSON.parse(raw), valid });
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
