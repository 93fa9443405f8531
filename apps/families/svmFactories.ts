import bs58 from "bs58";
import { devnetSolanaChain } from "../../devnet/svm/devnetSolanaChain.js";
import { type DevnetSolana, startDevnetSolana } from "../../devnet/svm/startDevnetSolana.js";
import { solanaSignaturesSource } from "../../indexers/svm/solanaSignaturesSource.js";
import type { PollerChain } from "../../indexers/startPollers.js";
import type { SvmChainConfig } from "../../src/chains/chainConfig.js";
import { type SvmRoleKeys, svmRoles } from "../../src/chains/svm/svmRoles.js";
import { svmChainConfigSchema, svmChainFamily } from "../../src/chains/svm/svmChainFamily.js";
import { svmDepositTargets } from "../../src/chains/svm/svmDepositTargets.js";
import { type SvmKeys, svmKeySchema } from "../../src/chains/svm/svmKeys.js";
import { type FamilyFactories, setVariables } from "./familyFactories.js";
import { startPollerIndexer } from "./startPollerIndexer.js";

/**
 * A Solana chain's poller: the depository's (deposits) and the solver's (fills) signatures from the chain's
 * `startBlock` (a slot), looked for every two slots (at most 1 s).
 */
function svmPollerChain(chain: SvmChainConfig): PollerChain {
  return {
    chainId: chain.id,
    pollEveryMs: Math.min(1_000, chain.blockTimeSeconds * 2_000),
    source: solanaSignaturesSource({
      rpcUrl: chain.rpcUrl,
      targets: svmDepositTargets(chain),
      ...(chain.solver ? { solver: chain.solver } : {}),
      startSlot: chain.startBlock,
    }),
  };
}

/**
 * Solana's factories. The worker holds the solver's key (SOLANA_SOLVER_SECRET_KEY), paying fills, and the depository's
 * (SOLANA_DEPOSITORY_SECRET_KEY), paying refunds; the gateway holds none (quotes and deposits need none). Its facts are read by a poller of each chain's RPC; its devnet is litesvm behind Solana's JSON-RPC
 * (devnet/svm).
 */
export const svmFactories: FamilyFactories<SvmChainConfig, SvmKeys, SvmRoleKeys, DevnetSolana> = {
  vmType: "svm",
  label: "Solana",
  family: svmChainFamily,
  keySchema: svmKeySchema,
  roleKeys: (keys, role) =>
    role === "worker"
      ? { solverSecretKey: keys.solverSecretKey, depositorySecretKey: keys.depositorySecretKey, signsFills: true }
      : {},
  // The worker signs fills and refunds with them; the gateway, facing the internet, never holds them.
  keysRefused: (keys, role) =>
    role !== "worker"
      ? setVariables({
          SOLANA_SOLVER_SECRET_KEY: keys.solverSecretKey,
          SOLANA_DEPOSITORY_SECRET_KEY: keys.depositorySecretKey,
        })
      : [],
  adapter: (chain, keys) => svmRoles(chain, keys),
  indexer: {
    command: "svm",
    description: "the signature pollers of the chains file's Solana chains",
    start: (context) => startPollerIndexer(context, "Solana", svmPollerChain),
  },
  pollerChain: svmPollerChain,
  // The devnet's keys are public (devnet/svm/devnetSolanaKeypair.ts), and its chain's wallets are theirs.
  devnet: async ({ config }) => {
    const solana = await startDevnetSolana({ slotMs: config.DEVNET_SOLANA_SLOT_MS });
    const entry = devnetSolanaChain(solana);
    return {
      chains: [svmChainConfigSchema.parse({ ...entry, blockTimeSeconds: Math.max(solana.slotMs, 1) / 1000 })],
      keys: {
        solverSecretKey: bs58.encode(solana.solver.secretKey),
        depositorySecretKey: bs58.encode(solana.depository.secretKey),
      },
      manifest: { chains: [entry] },
      devnet: solana,
      stop: solana.stop,
    };
  },
};
