import { Hono } from "hono";
import { z } from "zod";
import { exchangeInfo } from "./exchangeInfo.js";
import type { ExchangeLedger } from "./exchangeLedger.js";
import { parseExchangeRequest } from "./parseExchangeRequest.js";

/** The exchange's answer to a body it cannot read, with HTTP 422. */
const UNREADABLE = "Failed to deserialize the JSON body into the target type";
const txDetailsRequest = z.object({ type: z.literal("txDetails"), hash: z.string().regex(/^0x[0-9a-fA-F]{64}$/) });

/**
 * The exchange's public HTTP API as its SDKs call it: `POST /exchange` (user-signed transfers; refusals are HTTP
 * 200 `{status: "err"}`), `POST /info`, and the explorer's `POST /explorer` `txDetails`. Replies are JSON.
 */
export function exchangeApp(ledger: ExchangeLedger, now: () => number = Date.now): Hono {
  const app = new Hono();
  const body = async (req: Request): Promise<unknown> => {
    try {
      return await req.json();
    } catch {
      return undefined;
    }
  };
  app.post("/exchange", async (c) => {
    const request = parseExchangeRequest(await body(c.req.raw));
    if (!request) return c.text(UNREADABLE, 422);
    return c.json(await ledger.submit(request));
  });
  app.post("/info", async (c) => {
    const answer = exchangeInfo(ledger, await body(c.req.raw), now());
    return answer === undefined ? c.text(UNREADABLE, 422) : c.json(answer);
  });
  app.post("/explorer", async (c) => {
    const parsed = txDetailsRequest.safeParse(await body(c.req.raw));
    if (!parsed.success) return c.text(UNREADABLE, 422);
    const tx = ledger.tx(parsed.data.hash);
    return tx ? c.json({ type: "txDetails", tx }) : c.json({ error: `transaction ${parsed.data.hash} not found` }, 404);
  });
  app.get("/health", (c) => c.text("ok"));
  return app;
}
