import { esploraSource } from "../../indexers/bitcoin/esploraSource.js";
import type { ChainConfig } from "../chains/chainConfig.js";
import type { PollerChain } from "./startPollers.js";

/**
 * The pollers of the Bitcoin chains among `chains`: each reads its Esplora from its `startBlock`, at the head every
 * tenth of a block time (at most 5 s), so a block is recorded soon after it is mined.
 */
export function bitcoinPollerChains(chains: readonly ChainConfig[]): PollerChain[] {
  return chains.flatMap((chain) =>
    chain.vmType === "bvm"
      ? [
          {
            chainId: chain.id,
            startHeight: chain.startBlock,
            pollEveryMs: Math.min(5_000, chain.blockTimeSeconds * 100),
            source: esploraSource({
              esploraUrl: chain.esploraUrl,
              network: chain.network,
              depository: chain.depository,
            }),
          },
        ]
      : [],
  );
}
