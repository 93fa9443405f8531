import { Hono } from "hono";
import type pg from "pg";
import { type QuoteEngineDeps, createQuote } from "../../quote/createQuote.js";
import { authenticate } from "../http/authenticate.js";
import { jsonBody } from "../http/jsonBody.js";

/** POST /quote and /quote/v2: the same fields and the same answer; a key is optional (the official client sends none). */
export function quoteRoutes(deps: { quoteEngine: QuoteEngineDeps; pool: pg.Pool }): Hono {
  const app = new Hono();
  for (const path of ["/quote", "/quote/v2"]) {
    app.post(path, async (c) => {
      const key = await authenticate(deps.pool, c.req.header("x-api-key"));
      return c.json(
        await createQuote(deps.quoteEngine, await jsonBody(c), {
          apiKeyId: key?.id,
          integrator: key?.integrator,
          sponsors: key?.sponsors,
        }),
      );
    });
  }
  return app;
}
