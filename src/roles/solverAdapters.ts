import type { ChainConfig } from "../chains/chainConfig.js";
import { type ChainAdapters, createChainAdapters } from "../chains/chainAdapters.js";
import { createEvmAdapter } from "../chains/evm/createEvmAdapter.js";
import type { EvmSolver } from "../chains/evm/evmSolver.js";

/** The adapters of the configured chains, each family with the solver's key for it (EVM only so far: Bitcoin chains get none). */
export function solverAdapters(chains: readonly ChainConfig[], keys: { evm: EvmSolver }): ChainAdapters {
  return createChainAdapters(chains, { evm: (chain) => createEvmAdapter(chain, { solver: keys.evm }) });
}
