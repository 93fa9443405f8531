import type pg from "pg";
import type { Logger } from "pino";
import type { z } from "zod";
import type { DevnetPriceBook } from "../../devnet/prices/devnetPriceBook.js";
import type { PollerChain } from "../../indexers/startPollers.js";
import type { ChainRoles } from "../../src/chains/adapter.js";
import type { ChainConfig } from "../../src/chains/chainConfig.js";
import type { ChainFamily } from "../../src/chains/chainFamily.js";
import type { Config } from "../../src/config.js";
import type { Shutdown } from "../../src/runtime/shutdown.js";

/** The processes that hold chain keys: each gets only the keys its adapters need. */
export type KeyRole = "api" | "worker";

/** The roles refused keys they must not hold: the gateway, and the indexers, which sign nothing. */
export type RefusingRole = KeyRole | "indexer";

/** What an adapter reads beyond its chain and keys: the ports of the role's database (deposit-address owners). */
export type AdapterPorts = { pool?: pg.Pool };

/** What a family's indexer role (`crossfill indexer <command>`, npm start, the test stack) is started with. */
export type IndexerContext<C extends ChainConfig> = {
  vmType: C["vmType"];
  config: Config;
  /** The chains file's chains of the family (none when it has none: a poller role refuses to start then). */
  chains: readonly C[];
  /** The chains file itself (CROSSFILL_CHAINS_FILE; npm start's manifest), for an indexer that reads it (Ponder). */
  chainsFile: string;
  databaseUrl: string;
  logger: Logger;
  /** Beside other roles in one terminal (npm start, tests): the indexer's own output only from warnings up. */
  quiet?: boolean;
  /** True once the composition is shutting down: connection errors then are expected, not reported. */
  stopping?: () => boolean;
  /**
   * An indexer process of the family ended without being stopped. The role alone (`crossfill indexer`) exits then;
   * npm start and the test stack log it and stay up.
   */
  onExit(exit: { code: number | null; signal: NodeJS.Signals | null }): void;
};

/**
 * A family's local stand-in chains for `crossfill dev` and the test stack: started from the configuration (its
 * DEVNET_* settings), they come with their keys (the operator's own, from the environment, where the family lets
 * them win) and their entries of the devnet manifest. Starters run one after another in the order of
 * FAMILY_FACTORIES and stop in reverse.
 */
export type DevnetStarter<K, D = unknown> = (options: DevnetOptions<K>) => Promise<StartedDevnet<K, D>>;

export type DevnetOptions<K> = {
  config: Config;
  keys: K;
  /** Every chain on a port the OS picks, whatever DEVNET_BASE_PORT says (test stacks, several at once). */
  freePorts?: boolean;
  /** The devnet price service's book: a family with on-chain price aggregators (EVM) deploys and feeds them from it. */
  priceBook?: DevnetPriceBook;
};

export type StartedDevnet<K, D = unknown> = {
  /** The chains as the service reads them (parsed chains-file entries). */
  chains: ChainConfig[];
  /** The keys the devnet's roles sign with. */
  keys: K;
  /** The manifest's entries of these chains, and any fields the family adds to it (EVM: the funded accounts). */
  manifest: { chains: unknown[]; fields?: Record<string, unknown> };
  /** The family's own handle of its devnet (EVM: the anvils and funded accounts), for tests to act on the chains. */
  devnet: D;
  stop(): Promise<void>;
};

/**
 * What only the composition roots import of a family (its light half, `ChainFamily`, is in FAMILIES): its key
 * schema, the keys each role holds, its adapter factory, its indexer role and poller source, its devnet starter.
 * `K` is what the key schema parses from the environment, `A` what an adapter of a role is given, `D` the devnet's
 * handle.
 */
export interface FamilyFactories<C extends ChainConfig, K, A, D = unknown> {
  readonly vmType: C["vmType"];
  /** How a newcomer knows the family's chains: npm start's banner names each devnet chain by it ("Solana"). */
  readonly label: string;
  /** The family's light half, as FAMILIES lists it (the registry, quote validation and `/chains` read it). */
  readonly family: ChainFamily<C>;
  /** The family's keys under the operators' variable names (src/config.ts parseFamilyKeys reads them once). */
  readonly keySchema: z.ZodType<K>;
  /**
   * The keys a role's adapters hold (the gateway never the worker's signing keys); throws naming the variable when
   * the role cannot start without one.
   */
  roleKeys(keys: K, role: KeyRole): A;
  /**
   * The variables of the family's keys set in `keys` that `role` must not be started with (keys that move funds or
   * sign, and that the role never uses); none when absent. The root refuses to start such a role.
   */
  keysRefused?(keys: K, role: RefusingRole): string[];
  /** The roles the family's adapter offers for a chain (src/chains/adapter.ts `ChainRoles`). */
  adapter(chain: C, keys: A, ports: AdapterPorts): ChainRoles;
  /** `crossfill indexer <command>`: what records the family's chain facts. */
  readonly indexer: {
    readonly command: string;
    readonly description: string;
    start(context: IndexerContext<C>): Promise<Shutdown>;
  };
  /** The poller of one chain, for a family whose facts a poller reads (Bitcoin); none for Ponder's (EVM). */
  pollerChain?(chain: C, pool: pg.Pool): PollerChain;
  readonly devnet: DevnetStarter<K, D>;
}

/** The names of the variables that are set, for a family's `keysRefused`. */
export function setVariables(variables: Readonly<Record<string, unknown>>): string[] {
  return Object.entries(variables).flatMap(([name, value]) => (value === undefined ? [] : [name]));
}
