import { listChainHeads } from "../../schema/chainHeads.js";
import { listChainSwitches } from "../../schema/chainSwitches.js";
import { listHeldSolverCurrencies } from "../../schema/solverBalances.js";
import type { Queryable } from "../../schema/queryable.js";
import { blockProductionLagging } from "../domain/blockProductionLagging.js";
import type { ChainConfig } from "./chainConfig.js";

export type ChainAvailability = {
  disabled: boolean;
  depositEnabled: boolean;
  /** Decimal USD: the largest quote the chain takes for now; null when it takes any size. */
  partialDisableLimitUsd: string | null;
  blockProductionLagging: boolean;
  reason: string | null;
  /**
   * The currencies the solver held some of at the worker's last balance read, as stored (EVM lower case, base58 as
   * written: the keys `currencyKey` gives; read without the chain's family, which any registered family may be).
   * None before the worker's first read, and on a chain it does not fill.
   */
  solverCurrencies: readonly string[];
};

export type ChainAvailabilityReader = (chain: ChainConfig) => Promise<ChainAvailability>;

/**
 * What the operator switches (`crossfill chains`), the indexer's heads and the solver's last balances say of each chain, as every gateway
 * replica sees it: read from Postgres at most once per `ttlMs`, so a switch reaches all replicas within it.
 */
export function createChainAvailability(
  db: Queryable,
  options: { ttlMs?: number; now?: () => number } = {},
): ChainAvailabilityReader {
  const ttlMs = options.ttlMs ?? 1_000;
  const now = options.now ?? Date.now;
  let cached:
    | {
        at: number;
        value: Promise<
          [
            Awaited<ReturnType<typeof listChainSwitches>>,
            Awaited<ReturnType<typeof listChainHeads>>,
            Awaited<ReturnType<typeof listHeldSolverCurrencies>>,
          ]
        >;
      }
    | undefined;
  let lastRead: Awaited<NonNullable<typeof cached>["value"]> | undefined;
  const load = () => {
    if (!cached || now() - cached.at >= ttlMs) {
      const value = Promise.all([listChainSwitches(db), listChainHeads(db), listHeldSolverCurrencies(db)]).then(
        (read) => (lastRead = read),
        (error: unknown) => {
          // Not kept: the next caller reads again. Meanwhile GET /chains answers from the last read, as an outage
          // of the database should not take the chain list down with it.
          cached = undefined;
          if (lastRead) return lastRead;
          throw error;
        },
      );
      cached = { at: now(), value };
    }
    return cached.value;
  };
  return async (chain) => {
    const [switches, heads, held] = await load();
    const switched = switches.find((s) => s.chainId === chain.id);
    const head = heads.find((h) => h.chainId === chain.id);
    const disabled = switched?.disabled ?? false;
    return {
      disabled,
      depositEnabled: !disabled,
      partialDisableLimitUsd: switched?.partialDisableLimitUsd ?? null,
      blockProductionLagging: blockProductionLagging(head, chain.blockTimeSeconds, now()),
      reason: switched?.reason ?? null,
      solverCurrencies: held.get(chain.id) ?? [],
    };
  };
}
