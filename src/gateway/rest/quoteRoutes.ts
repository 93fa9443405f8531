import { Hono } from "hono";
import { type QuoteEngineDeps, createQuote } from "../../quote/createQuote.js";
import { jsonBody } from "./jsonBody.js";

/** POST /quote and /quote/v2: the same fields and the same answer. */
export function quoteRoutes(deps: { quoteEngine: QuoteEngineDeps }): Hono {
  const app = new Hono();
  for (const path of ["/quote", "/quote/v2"]) {
    app.post(path, async (c) => c.json(await createQuote(deps.quoteEngine, await jsonBody(c.req.raw))));
  }
  return app;
}
