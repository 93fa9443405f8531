import { Hono } from "hono";
import type pg from "pg";
import { z } from "zod";
import { insertFillFacts, insertManualDepositFacts, insertWithdrawalFacts } from "../../../schema/chainFacts.js";
import type { ChainAdapters } from "../../chains/chainAdapters.js";
import type { ChainRegistry } from "../../chains/chainRegistry.js";
import { anyTransactionHash } from "../../chains/vmFamilies.js";
import { InvalidInputError } from "../../domain/errors.js";
import { type AuthEnv, apiKeyAuth } from "../http/apiKeyAuth.js";
import type { RateLimitDeps } from "../http/hitRateLimits.js";
import { jsonBody } from "../http/jsonBody.js";
import { parseInput } from "../http/parseInput.js";
import { rateLimit } from "../http/rateLimit.js";
import type { RouteLimit } from "../http/routeLimits.js";

/** The body of POST /transactions/index (also published in /openapi.json). */
export const indexBody = z.object({
  // A hash of some family here; the chain's own family checks it below.
  txHash: z
    .string()
    .refine(
      (value) => anyTransactionHash(value) !== undefined,
      "must be a transaction hash (EVM: 32 bytes, 0x-prefixed)",
    ),
  // The official client sends the chain id as a decimal string.
  chainId: z.union([
    z.number().int().positive(),
    z
      .string()
      .regex(/^\d{1,15}$/)
      .transform(Number),
  ]),
});

/** What POST /transactions/index answers (also published in /openapi.json): how much of each it read and recorded. */
export const indexAnswer = z.object({
  message: z.string(),
  deposits: z.number().int().describe("the deposits the transaction made"),
  recorded: z.number().int().describe("of them, those not recorded before"),
  fills: z.number().int().describe("our solver's fills it made"),
  refunds: z.number().int().describe("the depository's refunds it made"),
});

/**
 * POST /transactions/index: records the deposits, our solver's fills and the depository's withdrawals (refunds) of a
 * mined transaction the indexer has not seen yet, as the chain's adapter reads them (EVM: its receipt; Bitcoin:
 * Esplora, 404 until it is in a block; Solana: the RPC; the perps exchange: its ledger), as chain facts (the reconcile
 * tick applies them like the indexer's own; a mempool sighting of the same deposit gives way to it). Rate limited
 * before the body is read: each call costs a chain read.
 */
export function transactionRoutes(
  deps: RateLimitDeps & { pool: pg.Pool; registry: ChainRegistry; adapters: ChainAdapters; limit: RouteLimit },
): Hono<AuthEnv> {
  const limited = rateLimit(deps, deps.limit);
  return new Hono<AuthEnv>().post(
    "/transactions/index",
    apiKeyAuth(deps.pool, { required: false }),
    limited,
    async (c) => {
      const body = parseInput(indexBody, await jsonBody(c));
      const chain = deps.registry.chain(body.chainId);
      if (!chain) throw new InvalidInputError("UNSUPPORTED_CHAIN", `chain ${body.chainId} is not supported`);
      const deposits = deps.adapters.depositsOf(chain.id);
      if (!deposits)
        throw new InvalidInputError(
          "UNSUPPORTED_CHAIN",
          `transactions of chain ${chain.id} cannot be indexed by hand yet`,
        );
      const txHash = deps.registry.family(chain).codecOf(chain).parseTransactionHash(body.txHash);
      if (txHash === undefined)
        throw new InvalidInputError("INVALID_INPUT", `txHash: not a transaction hash of chain ${chain.id}`);
      // Both read before anything is written: a read refused (404) records nothing.
      const facts = await deposits.readDepositFacts(txHash);
      const settled = (await deposits.readSettlementFacts?.(txHash)) ?? { fills: [], withdrawals: [] };
      const recorded = await insertManualDepositFacts(deps.pool, facts);
      // Fills and refunds are recorded as chain facts only: the worker's reconcile and refund confirmer decide
      // what they mean for a request (a fill of an unknown request, or a withdrawal we did not send, means nothing).
      await insertFillFacts(deps.pool, settled.fills);
      await insertWithdrawalFacts(deps.pool, settled.withdrawals);
      const indexed = facts.length + settled.fills.length + settled.withdrawals.length;
      return c.json({
        message: indexed ? "Transaction indexed" : "Transaction has no deposit, fill or refund",
        deposits: facts.length,
        recorded,
        fills: settled.fills.length,
        refunds: settled.withdrawals.length,
      } satisfies z.infer<typeof indexAnswer>);
    },
  );
}
