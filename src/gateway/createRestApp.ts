import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import type pg from "pg";
import type { Logger } from "pino";
import { type Hex, isHash } from "viem";
import { z } from "zod";
import { insertDepositFact } from "../../schema/chainFacts.js";
import { getStatusRecord } from "../../schema/statusRecord.js";
import type { ChainRegistry } from "../chains/chainRegistry.js";
import type { EvmChainClient } from "../chains/evmChainClient.js";
import { readDepositFacts } from "../chains/readDepositFacts.js";
import { InvalidInputError, NotFoundError } from "../domain/errors.js";
import { type QuoteEngineDeps, createQuote } from "../quote/createQuote.js";
import { errorBody } from "./rest/errorBody.js";
import { toChainRecord } from "./rest/toChainRecord.js";

export type RestAppDeps = {
  pool: pg.Pool;
  registry: ChainRegistry;
  client: (chainId: number) => EvmChainClient;
  quoteEngine: QuoteEngineDeps;
  solverAddress: string;
  logger: Logger;
};

// The largest legitimate body is a quote with 16 destination calls; anything far beyond it is refused unread.
const MAX_BODY_BYTES = 256 * 1024;

const indexBody = z.object({
  txHash: z.string().refine((value) => isHash(value), "must be a 32-byte 0x-prefixed transaction hash"),
  chainId: z.union([z.number().int().positive(), z.string().regex(/^\d{1,15}$/).transform(Number)]),
});

async function jsonBody(request: Request): Promise<unknown> {
  try {
    return await request.json();
  } catch {
    throw new InvalidInputError("INVALID_INPUT", "the request body must be valid JSON");
  }
}

/** The REST surface of the spec that the spine serves. */
export function createRestApp(deps: RestAppDeps): Hono {
  const app = new Hono();
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

  const chains = { chains: deps.registry.chains.map((chain) => toChainRecord(chain, deps.solverAddress)) };
  app.get("/chains", (c) => c.json(chains));

  const quote = async (c: { req: { raw: Request }; json: (body: unknown) => Response }) =>
    c.json(await createQuote(deps.quoteEngine, await jsonBody(c.req.raw)));
  app.post("/quote", quote);
  app.post("/quote/v2", quote);

  const status = async (c: { req: { query: (name: string) => string | undefined }; json: (body: unknown) => Response }) => {
    const requestId = c.req.query("requestId");
    if (!requestId) throw new InvalidInputError("INVALID_INPUT", "requestId is required");
    if (!/^0x[0-9a-fA-F]{64}$/.test(requestId)) throw new InvalidInputError("INVALID_INPUT", "requestId must be a 32-byte hex string");
    const record = await getStatusRecord(deps.pool, requestId.toLowerCase());
    if (!record) throw new NotFoundError("REQUEST_NOT_FOUND", `request ${requestId} was not found`);
    const failure = record.status === "failure" || record.status === "refund";
    return c.json({
      status: record.status,
      inTxHashes: record.inTxHashes,
      txHashes: record.txHashes,
      updatedAt: record.updatedAt.getTime(),
      originChainId: record.originChainId,
      destinationChainId: record.destinationChainId,
      failReason: record.failReason ?? (failure ? "UNKNOWN" : "N/A"),
      refundFailReason: record.refundFailReason ?? "N/A",
      details: null,
    });
  };
  app.get("/intents/status/v3", status);
  app.get("/intents/status", status);

  app.post("/transactions/index", async (c) => {
    const parsed = indexBody.safeParse(await jsonBody(c.req.raw));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new InvalidInputError("INVALID_INPUT", `${issue.path.join(".") || "body"}: ${issue.message}`);
    }
    const chain = deps.registry.chain(parsed.data.chainId);
    if (!chain) throw new InvalidInputError("UNSUPPORTED_CHAIN", `chain ${parsed.data.chainId} is not supported`);
    const facts = await readDepositFacts(deps.client(chain.id), parsed.data.txHash as Hex);
    let recorded = 0;
    for (const fact of facts) if (await insertDepositFact(deps.pool, fact, "manual")) recorded += 1;
    return c.json({ message: facts.length ? "Transaction indexed" : "Transaction has no deposit", deposits: facts.length, recorded });
  });

  return app;
}
