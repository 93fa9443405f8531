import { z } from "zod";
import { PERPS_CHAIN_ID } from "../../domain/reservedChainIds.js";
import type { ChainFamily } from "../chainFamily.js";
import { commonChainFields, nativeCurrencySchema } from "../commonChainFields.js";
import { evmFamily } from "../evm/evmFamily.js";
import { hypevmFamily, parseCurrencyId, PERPS_USDC_CURRENCY } from "./hypevmFamily.js";

const account = z
  .string()
  .refine((value) => evmFamily.address.parse(value) !== undefined, "expected a 20-byte hex address");

/**
 * The perps exchange (chain 1337, the id the spec and the official client give it), read and written through its
 * HTTP API: deposits to it are the solver's signed transfers from its exchange account, withdrawals are users'
 * transfers to the depository's account.
 */
export const hypevmChainConfigSchema = z
  .object({
    ...commonChainFields,
    id: z.literal(PERPS_CHAIN_ID),
    vmType: z.literal("hypevm"),
    /** Base URL of the exchange's API (`/exchange`, `/info`); the devnet's local exchange or the real one. */
    exchangeUrl: z.string().url(),
    /** The network transfers are signed for (`hyperliquidChain`). */
    network: z.enum(["Mainnet", "Testnet"]),
    /** The service's account on the exchange that users' withdrawals pay (its key signs their refunds). */
    depository: account,
    /** The solver's account on the exchange, which pays deposits to it; without it 1337 is no destination. */
    solver: account.optional(),
    // The exchange has no blocks the service follows: a "block" is a second of its ledger.
    blockTimeSeconds: z.number().positive().default(1),
    /** A transfer to the depository that no authorize step mapped is refunded after this many seconds: an hour. */
    refundUnmatchedAfterBlocks: z.number().int().min(1).max(100_000).default(3600),
    nativeCurrency: nativeCurrencySchema.default({ symbol: "USDC", name: "USD Coin (perps)", decimals: 8 }),
    /**
     * Spot currencies by token id (a sub-exchange's with its name's hex appended). Perps USDC is the native currency;
     * the list may repeat it (the devnet manifest does, for wallets).
     */
    currencies: z
      .array(
        z.object({
          symbol: z.string().min(1),
          name: z.string().min(1).optional(),
          address: z
            .string()
            .refine((value) => parseCurrencyId(value) !== undefined, "expected an exchange currency id"),
          decimals: z.number().int().min(0).max(18),
        }),
      )
      .default([]),
  })
  .superRefine((chain, context) => {
    if (chain.solver !== undefined && chain.solver.toLowerCase() === chain.depository.toLowerCase())
      context.addIssue({
        code: "custom",
        path: ["solver"],
        message: "the solver's account must not be the depository",
      });
    for (const [index, currency] of chain.currencies.entries())
      if (parseCurrencyId(currency.address) === PERPS_USDC_CURRENCY && currency.decimals !== 8)
        context.addIssue({
          code: "custom",
          path: ["currencies", index, "decimals"],
          message: "perps USDC (the native currency, which the list may repeat for wallets) has 8 decimals",
        });
  });

export type HypevmChainConfig = z.infer<typeof hypevmChainConfigSchema>;

/**
 * The perps exchange: no contracts and no calls, no same-chain requests, no deposit addresses or app fees; a
 * destination only with a solver account; transfers to the depository that name no request (no nonce mapping) are
 * refunded after `refundUnmatchedAfterBlocks`.
 */
export const hypevmChainFamily = {
  vmType: "hypevm",
  configSchema: hypevmChainConfigSchema,
  codec: hypevmFamily,
  codecOf: () => hypevmFamily,
  capabilities: (chain) => ({
    sameChain: false,
    destinationRefusal: chain.solver
      ? undefined
      : `chain ${chain.id} names no solver account on the exchange: it is offered as an origin only`,
    destinationCallsRefusal: "the perps exchange takes no calls, only a transfer",
    appFees: false,
    depositAddresses: false,
    refundUnmatchedAfterBlocks: chain.refundUnmatchedAfterBlocks,
  }),
  // Read through the exchange's API, not an RPC; transfers need no contract, so perps USDC stands in for the receiver.
  publicFields: (chain) => ({
    publicRpcUrl: undefined,
    publicWsUrl: undefined,
    receiver: PERPS_USDC_CURRENCY,
    tokens: chain.currencies.filter((currency) => parseCurrencyId(currency.address) !== PERPS_USDC_CURRENCY),
  }),
} as const satisfies ChainFamily<HypevmChainConfig>;
