import type pg from "pg";
import type { Logger } from "pino";
import type { z } from "zod";
import type { PollerChain } from "../../indexers/startPollers.js";
import type { ChainRoles } from "../../src/chains/adapter.js";
import type { ChainConfig } from "../../src/chains/chainConfig.js";
import type { Config } from "../../src/config.js";
import type { Shutdown } from "../../src/runtime/shutdown.js";

/** The processes that hold chain keys: each gets only the keys its adapters need. */
export type KeyRole = "api" | "worker";

/** What an adapter reads beyond its chain and keys: the ports of the role's database (deposit-address owners). */
export type AdapterPorts = { pool?: pg.Pool };

/** What a family's indexer role (`crossfill indexer <command>`) is started with. */
export type IndexerContext<C extends ChainConfig> = {
  vmType: C["vmType"];
  config: Config;
  /** The chains file's chains of the family (none when it has none: a poller role refuses to start then). */
  chains: readonly C[];
  databaseUrl: string;
  logger: Logger;
};

/**
 * A family's local stand-in chains for `crossfill dev`: started from the configuration (its DEVNET_* settings), they
 * come with their keys (the operator's own, from the environment, where the family lets them win) and their entries
 * of the devnet manifest. Starters run one after another in the order of FAMILY_FACTORIES and stop in reverse.
 */
export type DevnetStarter<K> = (options: { config: Config; keys: K }) => Promise<StartedDevnet<K>>;

export type StartedDevnet<K> = {
  /** The chains as the service reads them (parsed chains-file entries). */
  chains: ChainConfig[];
  /** The keys the devnet's roles sign with. */
  keys: K;
  /** The manifest's entries of these chains, and any fields the family adds to it (EVM: the funded accounts). */
  manifest: { chains: unknown[]; fields?: Record<string, unknown> };
  stop(): Promise<void>;
};

/**
 * What only the composition roots import of a family (its light half, `ChainFamily`, is in FAMILIES): its key
 * schema, the keys each role holds, its adapter factory, its indexer role and poller source, its devnet starter.
 * `K` is what the key schema parses from the environment, `A` what an adapter of a role is given.
 */
export interface FamilyFactories<C extends ChainConfig, K, A> {
  readonly vmType: C["vmType"];
  /** The family's keys under the operators' variable names (src/config.ts parseFamilyKeys reads them once). */
  readonly keySchema: z.ZodType<K>;
  /**
   * The keys a role's adapters hold (the gateway never the worker's signing keys); throws naming the variable when
   * the role cannot start without one.
   */
  roleKeys(keys: K, role: KeyRole): A;
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
  readonly devnet: DevnetStarter<K>;
}
