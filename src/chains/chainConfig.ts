import { readFileSync } from "node:fs";
import { z } from "zod";
import { BITCOIN_NATIVE_CURRENCY, bitcoinFamily } from "./bitcoin/bitcoinFamily.js";
import { esploraUrlRefusal } from "./bitcoin/esploraUrlRefusal.js";
import { evmFamily } from "./evm/evmFamily.js";

const address = z
  .string()
  .refine((value) => evmFamily.address.parse(value) !== undefined, "expected a 20-byte hex address");

export const currencyConfigSchema = z.object({
  symbol: z.string().min(1),
  name: z.string().min(1).optional(),
  address,
  decimals: z.number().int().min(0).max(36),
  /**
   * The chain's wrapped native currency (WETH9: `deposit()`/`withdraw(uint256)`, one token per wei): a Wrap or
   * Unwrap quote converts through it. At most one per chain.
   */
  wrapsNative: z.boolean().optional(),
});

/** What every chain has, whatever its VM. */
const commonChainFields = {
  name: z.string().regex(/^[a-z0-9-]+$/, "lowercase letters, digits and dashes"),
  displayName: z.string().optional(),
  explorerUrl: z.string().default(""),
  startBlock: z.number().int().min(0).default(0),
  /**
   * Blocks a deposit must have before it is filled, tiered by its USD value: the largest `blocks` whose
   * `minUsd` the deposit reaches applies. None (the devnet's default) fills at once.
   */
  confirmations: z
    .array(
      z.object({
        minUsd: z.string().regex(/^\d+(\.\d+)?$/, "a decimal USD amount"),
        blocks: z.number().int().min(0).max(10_000),
      }),
    )
    .default([]),
};

const nativeCurrencySchema = z.object({ symbol: z.string(), name: z.string(), decimals: z.number().int() });

export const evmChainConfigSchema = z.object({
  ...commonChainFields,
  id: z
    .number()
    .int()
    .positive()
    .refine((id) => id !== 1337 && id !== 8253038, {
      message: "chain ids 1337 and 8253038 are reserved for the perps exchange and Bitcoin",
    }),
  vmType: z.literal("evm"),
  rpcUrl: z.string().url(),
  wsUrl: z.string().url().optional(),
  /**
   * The RPC URLs `GET /chains` and GraphQL `chains` publish (`httpRpcUrl`, `wsRpcUrl`) for wallets and clients.
   * `rpcUrl` and `wsUrl` are the solver's own and often carry a provider key: they are never published, so a chain
   * without these shows empty ones.
   */
  publicRpcUrl: z.string().url().optional(),
  publicWsUrl: z.string().url().optional(),
  blockTimeSeconds: z.number().positive().default(2),
  /** How long one RPC call may take before it fails as REQUEST_TIMED_OUT (the client's default: 10 s). */
  rpcTimeoutMs: z.number().int().positive().optional(),
  /**
   * Most quote-time balance and allowance reads sent in one JSON-RPC batch request (reads made in the same event-loop
   * turn go together; 50 when not given). A node that refuses batches is asked call by call from then on; 1 never
   * batches.
   */
  rpcBatchSize: z.number().int().min(1).max(1000).optional(),
  depository: address,
  receiver: address,
  nativeCurrency: nativeCurrencySchema.default({ symbol: "ETH", name: "Ether", decimals: 18 }),
  currencies: z
    .array(currencyConfigSchema)
    .default([])
    .refine((currencies) => currencies.filter((currency) => currency.wrapsNative).length <= 1, {
      message: "at most one currency may be the chain's wrapped native (wrapsNative)",
    }),
});

/** A Bitcoin chain's confirmations rule when its entry gives none: 1 block, 2 from $10,000. */
export const BITCOIN_CONFIRMATIONS = [
  { minUsd: "0", blocks: 1 },
  { minUsd: "10000", blocks: 2 },
];

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

/** A chain of the chains file; `vmType` absent means EVM, so chains files written before Bitcoin still load. */
export const chainConfigSchema = z.preprocess(
  (value) =>
    value !== null && typeof value === "object" && !("vmType" in value) ? { ...value, vmType: "evm" } : value,
  z.discriminatedUnion("vmType", [evmChainConfigSchema, bitcoinChainConfigSchema]),
);

/** The chains file: the devnet manifest is one, a hand-written file for real chains is another. */
export const chainsFileSchema = z.object({ chains: z.array(chainConfigSchema).min(1) });

export type ChainConfig = z.infer<typeof chainConfigSchema>;
export type EvmChainConfig = z.infer<typeof evmChainConfigSchema>;
export type BitcoinChainConfig = z.infer<typeof bitcoinChainConfigSchema>;

export const isEvmChain = (chain: ChainConfig): chain is EvmChainConfig => chain.vmType === "evm";

export function loadChainsFile(path: string): ChainConfig[] {
  const parsed = chainsFileSchema.safeParse(JSON.parse(readFileSync(path, "utf8")));
  if (!parsed.success) throw new Error(`invalid chains file ${path}: ${z.prettifyError(parsed.error)}`);
  return parsed.data.chains;
}
