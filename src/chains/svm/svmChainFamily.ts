import { z } from "zod";
import type { ChainFamily } from "../chainFamily.js";
import { commonChainFields, nativeCurrencySchema } from "../commonChainFields.js";
import { SOLANA_NATIVE_CURRENCY, svmFamily } from "./svmFamily.js";

const base58Address = z.string().refine((value) => svmFamily.address.parse(value) !== undefined, {
  message: "expected a Solana address (a 32-byte public key in base58)",
});

/**
 * A Solana chain, read through its JSON-RPC (and websocket pubsub). It has no contracts of ours: deposits pay the
 * `depository` (SOL) or its associated token account (an SPL token) with a Memo naming the order.
 */
export const svmChainConfigSchema = z
  .object({
    ...commonChainFields,
    id: z.number().int().positive(),
    vmType: z.literal("svm"),
    /** The service's own RPC (it may carry a provider key: never published). */
    rpcUrl: z.string().url(),
    wsUrl: z.string().url().optional(),
    /** What GET /chains and GraphQL publish as the chain's RPC; nothing when unset. */
    publicRpcUrl: z.string().url().optional(),
    publicWsUrl: z.string().url().optional(),
    depository: base58Address,
    /** The solver's wallet, which pays EVM → Solana fills (its key: SOLANA_SOLVER_SECRET_KEY, worker only). */
    solver: base58Address.optional(),
    blockTimeSeconds: z.number().positive().default(0.4),
    /**
     * After how many slots a deposit to the depository that names no order (no Memo, a malformed one, an order id no
     * request has) is refunded to its depositor, less the refund's fee: a day of 400 ms slots.
     */
    refundUnmatchedAfterBlocks: z.number().int().min(1).max(10_000_000).default(216_000),
    nativeCurrency: nativeCurrencySchema.default({ symbol: "SOL", name: "Solana", decimals: 9 }),
    /**
     * SPL mints deposits may pay (devnet USDC), by their mint address; native SOL may be listed too (by the System
     * Program's id, as the devnet manifest does for wallets) and is then the native currency.
     */
    currencies: z
      .array(
        z.object({
          symbol: z.string().min(1),
          name: z.string().min(1).optional(),
          address: z.string().refine((value) => value === SOLANA_NATIVE_CURRENCY || svmFamily.address.parse(value), {
            message: "expected an SPL mint address or the native SOL id",
          }),
          decimals: z.number().int().min(0).max(18),
        }),
      )
      .default([]),
  })
  .superRefine((chain, context) => {
    if (chain.solver !== undefined && chain.solver === chain.depository)
      context.addIssue({ code: "custom", path: ["solver"], message: "the solver's wallet must not be the depository" });
    const native = chain.currencies.find((currency) => currency.address === SOLANA_NATIVE_CURRENCY);
    if (native && native.decimals !== chain.nativeCurrency.decimals)
      context.addIssue({
        code: "custom",
        path: ["currencies"],
        message: "native SOL has the native currency's decimals",
      });
  });

export type SvmChainConfig = z.infer<typeof svmChainConfigSchema>;

/**
 * Solana: no contracts of ours (the depository is a wallet, deposits name their order in a Memo, fills their request
 * id), SPL tokens beside SOL, no destination calls. A chain with a `solver` wallet is a destination too; deposits
 * naming no order are refunded after `refundUnmatchedAfterBlocks` slots.
 */
export const svmChainFamily = {
  vmType: "svm",
  configSchema: svmChainConfigSchema,
  codec: svmFamily,
  codecOf: () => svmFamily,
  capabilities: (chain) => ({
    sameChain: false,
    destinationRefusal: chain.solver
      ? undefined
      : `chain ${chain.id} has no solver wallet: the service pays no fills on it`,
    destinationCallsRefusal: "a Solana destination takes no calls, only a payment",
    appFees: false,
    depositAddresses: false,
    refundUnmatchedAfterBlocks: chain.refundUnmatchedAfterBlocks,
    depositFeePayer: true,
  }),
  // Fills need no contract, so the native SOL id stands in for the receiver.
  publicFields: (chain) => ({
    publicRpcUrl: chain.publicRpcUrl,
    publicWsUrl: chain.publicWsUrl,
    receiver: SOLANA_NATIVE_CURRENCY,
    tokens: chain.currencies.filter((currency) => currency.address !== SOLANA_NATIVE_CURRENCY),
  }),
} as const satisfies ChainFamily<SvmChainConfig>;
