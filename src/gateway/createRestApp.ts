import { randomBytes } from "node:crypto";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import type pg from "pg";
import type { Logger } from "pino";
import type { ChainRegistry } from "../chains/chainRegistry.js";
import type { EvmChainClient } from "../chains/evmChainClient.js";
import type { QuoteEngineDeps } from "../quote/createQuote.js";
import { chainRoutes } from "./rest/chainRoutes.js";
import { errorBody } from "./rest/errorBody.js";
import { quoteRoutes } from "./rest/quoteRoutes.js";
import { requestsRoutes } from "./rest/requestsRoutes.js";
import { statusRoutes } from "./rest/statusRoutes.js";
import { transactionRoutes } from "./rest/transactionRoutes.js";

export type RestAppDeps = {
  pool: pg.Pool;
  registry: ChainRegistry;
  client: (chainId: number) => EvmChainClient;
  quoteEngine: QuoteEngineDeps;
  solverAddress: string;
  logger: Logger;
  /** Signs listing cursors; give every replica the same one (startApi derives it from API_KEY_ENCRYPTION_KEY). */
  cursorSecret?: Buffer;
};

// The largest legitimate body is a quote with 16 destination calls; anything far beyond it is refused unread.
const MAX_BODY_BYTES = 256 * 1024;

/** The REST surface: one route module per domain, errors translated to the spec's body here only. */
export function createRestApp(deps: RestAppDeps): Hono {
  const app = new Hono();
  const cursorSecret = deps.cursorSecret ?? randomBytes(32);
  app.use("*", cors());
  app.use(
    "*",
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) => c.json({ message: `request body exceeds ${MAX_BODY_BYTES} bytes`, errorCode: "INVALID_INPUT" }, 413),
    }),
  );
  app.onError((error, c) => {
    const { status, body } = errorBody(error);
    if (status >= 500) deps.logger.error({ err: error, path: c.req.path }, "request failed");
    return c.json(body, status as 400);
  });
  app.notFound((c) => c.json({ message: `no route for ${c.req.method} ${c.req.path}`, errorCode: "NOT_FOUND" }, 404));

  app.route("/", chainRoutes(deps));
  app.route("/", quoteRoutes(deps));
  app.route("/", statusRoutes(deps));
  app.route("/", transactionRoutes(deps));
  app.route("/", requestsRoutes({ ...deps, cursorSecret }));
  return app;
}
