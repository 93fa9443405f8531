import { BITCOIN_NATIVE_CURRENCY } from "../../src/chains/bitcoin/bitcoinFamily.js";
import type { DevnetBitcoin } from "./startDevnetBitcoin.js";

/** The devnet Bitcoin's chain id (the spec's). */
export const DEVNET_BITCOIN_CHAIN_ID = 8253038;

/**
 * The devnet Bitcoin as an entry of the manifest's `chains[]` (a chains-file entry, vmType bvm), with its own funded
 * test `accounts` (address and WIF; the manifest's top-level `accounts` are the EVM ones).
 */
export function devnetBitcoinChain(btc: DevnetBitcoin) {
  return {
    id: DEVNET_BITCOIN_CHAIN_ID,
    name: "bitcoin-regtest",
    displayName: "Bitcoin (regtest)",
    vmType: "bvm" as const,
    network: "regtest" as const,
    esploraUrl: btc.esploraUrl,
    depository: btc.depository.address,
    // Funded at genesis (100 BTC); the dev role and the test stack give the worker its WIF (BITCOIN_SOLVER_WIF).
    solver: btc.solver.address,
    // A timer-less devnet (0) mines on demand; the chain keeps Bitcoin's nominal block time then.
    ...(btc.blockTimeMs > 0 ? { blockTimeSeconds: btc.blockTimeMs / 1000 } : {}),
    currencies: [{ symbol: "BTC", address: BITCOIN_NATIVE_CURRENCY, decimals: 8 as const }],
    accounts: btc.accounts.map(({ address, wif }) => ({ address, wif })),
  };
}
