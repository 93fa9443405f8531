import type pg from "pg";
import { depositAddressOwners } from "../../schema/depositAddresses.js";
import type { ChainConfig } from "./chainConfig.js";
import { type ChainAdapters, createChainAdapters } from "./chainAdapters.js";
import { createBitcoinAdapter } from "./bitcoin/createBitcoinAdapter.js";
import { createEvmAdapter } from "./evm/createEvmAdapter.js";
import type { EvmSolver } from "./evm/evmSolver.js";

/**
 * The adapters of the configured chains, each family with its keys: the EVM solver's, and the Bitcoin depository's
 * (refunds) and its solver wallet's (EVM → BTC fills); only the worker has them. The deposit-address account key is
 * the gateway's extended public key or the worker's extended private key; `pool` tells deposit addresses apart.
 */
export function solverAdapters(
  chains: readonly ChainConfig[],
  keys: {
    evm: EvmSolver;
    bitcoinDepositoryWif?: string;
    bitcoinSolverWif?: string;
    bitcoinDepositAddressKey?: string;
    /** BITCOIN_MAX_FEE_RATE_SAT_VB, for Bitcoin chains that set no cap of their own. */
    bitcoinMaxFeeRateSatVb?: number;
    pool?: pg.Pool;
  },
): ChainAdapters {
  const { pool } = keys;
  return createChainAdapters(chains, {
    evm: (chain) => createEvmAdapter(chain, { solver: keys.evm }),
    bvm: (chain) =>
      createBitcoinAdapter(chain, {
        depositoryWif: keys.bitcoinDepositoryWif,
        solverWif: keys.bitcoinSolverWif,
        depositAddressKey: keys.bitcoinDepositAddressKey,
        maxFeeRateSatVb: keys.bitcoinMaxFeeRateSatVb,
        ...(pool ? { depositAddresses: (addresses) => depositAddressOwners(pool, chain.id, addresses) } : {}),
      }),
  });
}
