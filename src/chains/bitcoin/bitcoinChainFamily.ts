import { z } from "zod";
import type { ChainFamily } from "../chainFamily.js";
import { commonChainFields, nativeCurrencySchema } from "../commonChainFields.js";
import { BITCOIN_NATIVE_CURRENCY, bitcoinFamily } from "./bitcoinFamily.js";
import { esploraUrlRefusal } from "./esploraUrlRefusal.js";

/**
 * A Bitcoin chain's confirmations rule when its entry gives none, the spec's: 1 block, 2 for a deposit whose amount
 * exceeds a per-currency threshold (0.1 BTC, in its own units: no price needed).
 */
export const BITCOIN_CONFIRMATIONS = [{ blocks: 1 }, { minAmounts: { BTC: "0.1" }, blocks: 2 }];

/**
 * A Bitcoin chain, read through an Esplora REST API. It has no contracts: deposits pay the `depository` address.
 * Bitcoin has no tokens, so `currencies` may only repeat native BTC (the devnet manifest lists it for wallets).
 */
export const bitcoinChainConfigSchema = z
  .object({
    ...commonChainFields,
    id: z.number().int().positive(),
    vmType: z.literal("bvm"),
    network: z.enum(["mainnet", "testnet", "regtest"]),
    // https only, but on a loopback host (the devnet): see esploraUrlRefusal.
    esploraUrl: z.string().url(),
    /**
     * The most sat/vB any fee read from Esplora may be (payouts, bumps, sweeps, refunds, deposit PSBTs); without it,
     * BITCOIN_MAX_FEE_RATE_SAT_VB (default 500).
     */
    maxFeeRateSatVb: z.number().min(1).optional(),
    depository: z.string(),
    /**
     * The solver's own wallet (P2WPKH), which pays EVM → BTC fills (its key: BITCOIN_SOLVER_WIF, worker only).
     * Without it Bitcoin is no destination. The poller records a fill only from a transaction spending it.
     */
    solver: z.string().optional(),
    blockTimeSeconds: z.number().positive().default(600),
    // The spec's rule: 1 block, 2 for high-value deposits (the USD threshold is the chain's to set).
    confirmations: commonChainFields.confirmations.unwrap().default(BITCOIN_CONFIRMATIONS),
    /**
     * After how many confirmations a payment to the depository that names no request (no OP_RETURN, a malformed
     * one, an order id no request has) is refunded to its depositor, less the refund's fee: a day of blocks.
     */
    refundUnmatchedAfterBlocks: z.number().int().min(1).max(100_000).default(144),
    nativeCurrency: nativeCurrencySchema.default({ symbol: "BTC", name: "Bitcoin", decimals: 8 }),
    currencies: z
      .array(
        z.object({
          symbol: z.string().min(1),
          name: z.string().min(1).optional(),
          address: z.literal(BITCOIN_NATIVE_CURRENCY),
          decimals: z.literal(8),
        }),
      )
      .default([]),
  })
  .superRefine((chain, context) => {
    const insecure = esploraUrlRefusal(chain.esploraUrl);
    if (insecure) context.addIssue({ code: "custom", path: ["esploraUrl"], message: insecure });
    if (bitcoinFamily([chain.network]).address.parse(chain.depository) === undefined)
      context.addIssue({
        code: "custom",
        path: ["depository"],
        message: `expected a Bitcoin address of ${chain.network}`,
      });
    if (chain.solver !== undefined && bitcoinFamily([chain.network]).address.parse(chain.solver) === undefined)
      context.addIssue({ code: "custom", path: ["solver"], message: `expected a Bitcoin address of ${chain.network}` });
    if (chain.solver !== undefined && chain.solver === chain.depository)
      context.addIssue({ code: "custom", path: ["solver"], message: "the solver's wallet must not be the depository" });
  });

export type BitcoinChainConfig = z.infer<typeof bitcoinChainConfigSchema>;

// Bitcoin takes the addresses of every network where no chain is given (a wallet filter on the devnet is regtest's).
const anyNetwork = bitcoinFamily(["mainnet", "testnet", "regtest"]);

/**
 * Bitcoin: no contracts, no tokens, no destination calls; a destination only with a solver wallet, an origin of
 * deposit addresses, and payments naming no request refunded after `refundUnmatchedAfterBlocks`.
 */
export const bitcoinChainFamily = {
  vmType: "bvm",
  configSchema: bitcoinChainConfigSchema,
  codec: anyNetwork,
  codecOf: (chain) => bitcoinFamily([chain.network]),
  capabilities: (chain) => ({
    sameChain: false,
    // EVM → BTC is paid from the solver's own Bitcoin wallet: a chain that names none is no destination.
    destinationRefusal: chain.solver
      ? undefined
      : `chain ${chain.id} names no Bitcoin solver wallet: it is offered as an origin only, not as a destination`,
    destinationCallsRefusal: "a Bitcoin destination takes no calls, only a payment",
    appFees: false,
    depositAddresses: true,
    refundUnmatchedAfterBlocks: chain.refundUnmatchedAfterBlocks,
  }),
  // Read through Esplora, not an RPC; fills need no contract, so the native BTC id stands in for the receiver.
  publicFields: () => ({
    publicRpcUrl: undefined,
    publicWsUrl: undefined,
    receiver: BITCOIN_NATIVE_CURRENCY,
    // `currencies` can only repeat native BTC, which is the chain's native currency.
    tokens: [],
  }),
} as const satisfies ChainFamily<BitcoinChainConfig>;
