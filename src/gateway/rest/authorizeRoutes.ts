import { Hono } from "hono";
import type pg from "pg";
import type { Address, Hex } from "viem";
import { z } from "zod";
import { authorizeNonceMapping } from "../../authorize/authorizeNonceMapping.js";
import { evmFamily } from "../../chains/evm/evmFamily.js";
import { validateQuery } from "../http/validateQuery.js";
import { type AuthEnv, apiKeyAuth } from "../http/apiKeyAuth.js";
import { jsonBody } from "../http/jsonBody.js";
import { parseInput } from "../http/parseInput.js";
import type { RateLimitDeps } from "../http/hitRateLimits.js";
import { callerPolicy } from "../http/policyFor.js";
import { enforceRateLimits } from "../http/rateLimit.js";
import type { RouteLimit } from "../http/routeLimits.js";

// The perps exchange's accounts are EVM addresses.
const address = z
  .string()
  .refine((value) => evmFamily.address.parse(value) !== undefined, "must be a 0x-prefixed 20-byte address");
const chainId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const MAX_UINT256 = 2n ** 256n - 1n;

/** The body of POST /authorize: the authorize step's `post.body`, verbatim (also published in /openapi.json). */
export const authorizeBody = z
  .object({
    type: z.literal("nonce-mapping"),
    walletChainId: chainId,
    wallet: address,
    depositor: address,
    nonce: z
      .union([
        z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
        z.string().regex(/^\d{1,78}$/, "must be a decimal integer string"),
      ])
      .transform((value) => BigInt(value))
      .refine((value) => value <= MAX_UINT256, "must fit in uint256"),
    id: z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be the 32-byte 0x-prefixed request id"),
    signatureChainId: chainId,
    // The official client adds its source here; it plays no part in the mapping.
    referrer: z.string().max(256).optional(),
  })
  .strict();

/** The query of POST /authorize: the wallet's signature of the step's typed data. */
export const authorizeQuery = z
  .object({
    signature: z
      .string()
      .regex(/^0x([0-9a-fA-F]{128}|[0-9a-fA-F]{130})$/, "must be a 64- or 65-byte 0x-prefixed signature"),
  })
  .strict();

export type AuthorizeLimits = { wallet: RouteLimit; total: RouteLimit };

/**
 * POST /authorize?signature=0x…: records the perps withdrawal's nonce mapping. Limited per (caller, wallet) and
 * per caller, the spec's elevated values being 5 and 30 per 60 s; bad input is refused before it counts.
 */
export function authorizeRoutes(deps: RateLimitDeps & { pool: pg.Pool; limits: AuthorizeLimits }): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  app.post("/authorize", apiKeyAuth(deps.pool, { required: false }), async (c) => {
    const { signature } = validateQuery(authorizeQuery, c.req.queries());
    const body = parseInput(authorizeBody, await jsonBody(c));
    await enforceRateLimits(deps, c, [
      callerPolicy(c, deps.limits.wallet, deps.trustForwardedFor, { scope: body.wallet.toLowerCase() }),
      callerPolicy(c, deps.limits.total, deps.trustForwardedFor),
    ]);
    const { mapping, created } = await authorizeNonceMapping(deps.pool, {
      wallet: body.wallet as Address,
      depositor: body.depositor as Address,
      nonce: body.nonce,
      id: body.id as Hex,
      walletChainId: body.walletChainId,
      signatureChainId: body.signatureChainId,
      signature: signature as Hex,
      apiKeyId: c.get("apiKey")?.id ?? null,
    });
    return c.json({
      message: created ? "Nonce mapping authorized" : "Nonce mapping already authorized",
      requestId: mapping.requestId,
      depositor: mapping.depositor,
      nonce: mapping.nonce.toString(),
    });
  });
  return app;
}
