import type pg from "pg";
import { esploraSource } from "./bitcoin/esploraSource.js";
import { depositAddressOwners, watchedDepositAddresses } from "../schema/depositAddresses.js";
import { isBitcoinChain } from "../src/chains/bitcoin/bitcoinFamily.js";
import type { ChainConfig } from "../src/chains/chainConfig.js";
import type { PollerChain } from "./startPollers.js";

/**
 * The pollers of the Bitcoin chains among `chains`: each reads its Esplora from its `startBlock`, at the head every
 * tenth of a block time (at most 5 s), so a block is recorded soon after it is mined. Each watches the deposit
 * addresses quoted on its chain (read from `pool`) beside the depository.
 */
export function bitcoinPollerChains(chains: readonly ChainConfig[], pool: pg.Pool): PollerChain[] {
  return chains.flatMap((chain) =>
    isBitcoinChain(chain)
      ? [
          {
            chainId: chain.id,
            startHeight: chain.startBlock,
            pollEveryMs: Math.min(5_000, chain.blockTimeSeconds * 100),
            source: esploraSource({
              esploraUrl: chain.esploraUrl,
              network: chain.network,
              depository: chain.depository,
              solver: chain.solver,
              depositAddresses: {
                known: (addresses) => depositAddressOwners(pool, chain.id, addresses),
                watched: () => watchedDepositAddresses(pool, chain.id),
              },
            }),
          },
        ]
      : [],
  );
}
