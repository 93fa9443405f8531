import { z } from "zod";
import type { ChainFamily } from "../chainFamily.js";
import {
  commonChainFields,
  currencyPresentationFields,
  currencyPriceSchema,
  nativeCurrencySchema,
} from "../commonChainFields.js";
import { BITCOIN_CHAIN_ID, PERPS_CHAIN_ID, SOLANA_CHAIN_ID, isReservedChainId } from "../../domain/reservedChainIds.js";
import { evmFamily } from "./evmFamily.js";

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
  ...currencyPresentationFields,
});

export const evmChainConfigSchema = z.object({
  ...commonChainFields,
  id: z
    .number()
    .int()
    .positive()
    .refine((id) => !isReservedChainId(id), {
      message: `chain ids ${PERPS_CHAIN_ID}, ${BITCOIN_CHAIN_ID} and ${SOLANA_CHAIN_ID} are reserved for the perps exchange, Bitcoin and Solana`,
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
  /** The chain's Multicall3 (canonically 0xcA11bde05977b3631167028862bE2a173976CA11), shown as `contracts.multicall3`. */
  multicall3: address.optional(),
  nativeCurrency: nativeCurrencySchema.default({ symbol: "ETH", name: "Ether", decimals: 18 }),
  /** commonChainFields' `prices`, whose aggregators are contracts on this chain (AggregatorV3Interface). */
  prices: z.record(z.string().min(1), currencyPriceSchema.extend({ aggregator: address.optional() })).default({}),
  currencies: z
    .array(currencyConfigSchema)
    .default([])
    .refine((currencies) => currencies.filter((currency) => currency.wrapsNative).length <= 1, {
      message: "at most one currency may be the chain's wrapped native (wrapsNative)",
    }),
});

export type EvmChainConfig = z.infer<typeof evmChainConfigSchema>;

export const isEvmChain = (chain: { vmType: string }): chain is EvmChainConfig => chain.vmType === "evm";

/**
 * EVM chains: contracts (a Depository and a Receiver), ERC-20 tokens, destination calls, same-chain requests and
 * app fees earned in the Depository.
 */
export const evmChainFamily = {
  vmType: "evm",
  configSchema: evmChainConfigSchema,
  codec: evmFamily,
  codecOf: () => evmFamily,
  capabilities: () => ({
    sameChain: true,
    destinationRefusal: undefined,
    destinationCallsRefusal: undefined,
    appFees: true,
    depositAddresses: false,
    refundUnmatchedAfterBlocks: undefined,
  }),
  publicFields: (chain) => ({
    publicRpcUrl: chain.publicRpcUrl,
    publicWsUrl: chain.publicWsUrl,
    receiver: chain.receiver,
    tokens: chain.currencies,
    multicall3: chain.multicall3,
  }),
} as const satisfies ChainFamily<EvmChainConfig>;
