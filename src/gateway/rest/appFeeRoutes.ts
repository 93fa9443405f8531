import { Hono } from "hono";
import type pg from "pg";
import type { Hex } from "viem";
import { z } from "zod";
import { listAppFeeClaims } from "../../../schema/appFeeClaims.js";
import { executeAppFeeClaim } from "../../appFees/executeAppFeeClaim.js";
import { prepareAppFeeClaim } from "../../appFees/prepareAppFeeClaim.js";
import { readAppFeeBalances } from "../../appFees/readAppFeeBalances.js";
import type { ChainRegistry } from "../../chains/chainRegistry.js";
import { parseEvmAddress } from "../../appFees/parseEvmAddress.js";
import type { PriceSource } from "../../pricing/priceSource.js";
import { type AuthEnv, apiKeyAuth } from "../http/apiKeyAuth.js";
import type { RateLimitDeps } from "../http/hitRateLimits.js";
import { jsonBody } from "../http/jsonBody.js";
import { parseInput } from "../http/parseInput.js";
import { rateLimit } from "../http/rateLimit.js";
import type { RouteLimit } from "../http/routeLimits.js";
import { validateQuery } from "../http/validateQuery.js";

const chainId = z.union([
  z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  z
    .string()
    .regex(/^\d{1,15}$/)
    .transform(Number),
]);
const uint = z
  .string()
  .regex(/^\d{1,78}$/, "must be a decimal integer string")
  .transform(BigInt)
  .refine((value) => value < 2n ** 256n, "must fit in uint256");
const address = z.string().max(128);

/** The body of POST /app-fees/{wallet}/claim, as the official client's claimAppFees sends it. */
export const claimBody = z
  .object({ chainId, currency: address, recipient: address.optional(), amount: uint.optional() })
  .strict();

/** The body of POST /app-fees/{wallet}/claim/execute: the claim step's `post.body`, verbatim. */
export const claimExecuteBody = z
  .object({
    id: z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be the claim's 32-byte 0x-prefixed id"),
    wallet: address,
    chainId: uint,
    currency: address,
    recipient: address,
    amount: uint,
    deadline: uint,
    // The official client adds its source to every posted body; it plays no part in the claim.
    referrer: z.string().max(256).optional(),
  })
  .strict();

export const signatureQuery = z
  .object({
    signature: z
      .string()
      .regex(/^0x([0-9a-fA-F]{128}|[0-9a-fA-F]{130})$/, "must be a 64- or 65-byte 0x-prefixed signature"),
  })
  .strict();

/**
 * App fees earned through `appFees` on quotes: balances, the claim (one EIP-712 signature step by the wallet that
 * earned them) and its execution, after which the worker pays the signed recipient from the Depository. Every route
 * here spends one rate limit, counted before anything is read.
 */
export function appFeeRoutes(
  deps: RateLimitDeps & { pool: pg.Pool; registry: ChainRegistry; prices: PriceSource; limit: RouteLimit },
): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  app.use("/app-fees/*", apiKeyAuth(deps.pool, { required: false }), rateLimit(deps, deps.limit));
  app.get("/app-fees/:wallet/balances", async (c) =>
    c.json(await readAppFeeBalances(deps.pool, deps, c.req.param("wallet"))),
  );
  app.get("/app-fees/:wallet/claims", async (c) => {
    const wallet = parseEvmAddress(c.req.param("wallet"), "wallet");
    const claims = await listAppFeeClaims(deps.pool, wallet);
    return c.json({
      claims: claims.map((claim) => ({
        claimId: claim.id,
        chainId: claim.chainId,
        currency: deps.registry.currency(claim.chainId, claim.currency) ?? {
          chainId: claim.chainId,
          address: claim.currency,
        },
        amount: claim.amount.toString(),
        recipient: claim.recipient,
        status: claim.status,
        txHash: claim.txHash,
        attempts: claim.attempts,
        nextAttemptAt: claim.nextAttemptAt?.toISOString() ?? null,
        reason: claim.lastError,
        createdAt: claim.createdAt.toISOString(),
      })),
    });
  });
  app.post("/app-fees/:wallet/claim", async (c) => {
    const body = parseInput(claimBody, await jsonBody(c));
    return c.json(await prepareAppFeeClaim(deps.pool, deps.registry, { ...body, wallet: c.req.param("wallet") }));
  });
  app.post("/app-fees/:wallet/claim/execute", async (c) => {
    const { signature } = validateQuery(signatureQuery, c.req.queries());
    const body = parseInput(claimExecuteBody, await jsonBody(c));
    const { claim, created } = await executeAppFeeClaim(deps.pool, deps.registry, {
      pathWallet: parseEvmAddress(c.req.param("wallet"), "wallet"),
      message: {
        id: body.id as Hex,
        wallet: parseEvmAddress(body.wallet, "wallet"),
        chainId: body.chainId,
        currency: parseEvmAddress(body.currency, "currency"),
        recipient: parseEvmAddress(body.recipient, "recipient"),
        amount: body.amount,
        deadline: body.deadline,
      },
      signature: signature as Hex,
    });
    return c.json({
      message: created ? "Claim accepted; the payout follows" : "Claim already accepted",
      claimId: claim.id,
      status: claim.status,
      txHash: claim.txHash,
    });
  });
  return app;
}
