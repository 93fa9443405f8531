import type { ConfirmationTier } from "../domain/requiredConfirmations.js";
import type { z } from "zod";
import type { CurrencyPriceConfig } from "./commonChainFields.js";
import type { VmFamily } from "./vmFamily.js";

/** The fields every family's chains-file entry has (commonChainFields, an id, a depository and a native currency). */
export type BaseChainConfig = {
  vmType: string;
  id: number;
  name: string;
  displayName?: string;
  explorerUrl: string;
  startBlock: number;
  explorerName?: string;
  iconUrl?: string;
  tags?: string[];
  baseChainId?: number;
  /** The UUID of a private chain (commonChainFields); absent for a public one. */
  privateId?: string;
  blockTimeSeconds: number;
  confirmations: ConfirmationTier[];
  depository: string;
  nativeCurrency: { symbol: string; name: string; decimals: number; logoURI?: string };
  /** The price feeds of currencies by symbol (commonChainFields `prices`). */
  prices?: Readonly<Record<string, CurrencyPriceConfig>>;
};

/**
 * The vmType of a family a test composition registers beside FAMILIES (test/testFamily/: `testvm`). The prefix keeps
 * it apart from every vmType of FAMILIES, so narrowing a chain on one of theirs still works; no chains file holds
 * such a chain (chainConfigSchema parses FAMILIES' entries only).
 */
export type TestVmType = `test${string}`;

/** A chain of a family registered by a test composition: the service reads it through its family alone. */
export type TestFamilyChainConfig = BaseChainConfig & { vmType: TestVmType };

/** A currency a chain is configured with besides its native one (EVM: an ERC-20; a token-less family has none). */
export type TokenConfig = {
  symbol: string;
  name?: string;
  address: string;
  decimals: number;
  wrapsNative?: boolean;
  logoURI?: string;
  verified?: boolean;
};

/**
 * What a configured chain of a family can do, asked by quote validation and the roles instead of its `vmType`. A
 * refusal is the message a quote asking for it gets (the family words it); undefined means the chain can.
 */
export type ChainCapabilities = {
  /** Requests whose origin and destination are this chain. */
  sameChain: boolean;
  /** Why the chain is no destination (e.g. no solver wallet is configured); undefined when it is one. */
  destinationRefusal: string | undefined;
  /** Why a fill on this chain takes no destination calls (`txs`); undefined when it does. */
  destinationCallsRefusal: string | undefined;
  /** Integrators' fees earned in the chain's Depository and claimed from it. */
  appFees: boolean;
  /** `useDepositAddress`: the user pays a fresh address of the request (when the chain has a key to derive it). */
  depositAddresses: boolean;
  /**
   * Payments to the depository that name no request are refunded after this many blocks; undefined where every
   * deposit names its request (EVM: a Depository call).
   */
  refundUnmatchedAfterBlocks: number | undefined;
  /** `depositFeePayer`: another address signs the deposit transaction as its fee payer (Solana); absent: refused. */
  depositFeePayer?: boolean;
};

/** The public chain fields a family fills in for GET /chains and GraphQL `chains` (one function serves both). */
export type PublicChainFields = {
  /** The chains file's published RPC URLs; undefined when none (never the solver's own, which may carry a key). */
  publicRpcUrl: string | undefined;
  publicWsUrl: string | undefined;
  /** The contract fills are made through; a family without one shows its native currency id. */
  receiver: string;
  /** The configured currencies besides the native one. */
  tokens: readonly TokenConfig[];
  /** The chain's Multicall3, where the entry names one. */
  multicall3?: string;
};

/**
 * One chain family as the registry knows it (viem's chain definitions are the model): its chains-file entry, its
 * address and hash formats, what its chains can do and what they publish. It is light, importing no chain client,
 * so the indexers and the chains-file parser may use it; the family's adapter factory, poller source and devnet
 * starter are its factories (FamilyFactories), which only the composition roots import.
 */
export interface ChainFamily<C extends BaseChainConfig = BaseChainConfig> {
  readonly vmType: C["vmType"];
  /** The chains-file entry; its `vmType` literal tells the families apart. */
  readonly configSchema: z.ZodType<C>;
  /** Addresses and hashes of any network of the family, for fields bound to no configured chain. */
  readonly codec: VmFamily;
  /** Addresses and hashes as one configured chain reads them (Bitcoin: only its own network's). */
  codecOf(chain: C): VmFamily;
  capabilities(chain: C): ChainCapabilities;
  publicFields(chain: C): PublicChainFields;
}
