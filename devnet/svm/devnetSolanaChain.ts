import bs58 from "bs58";
import type { DevnetSolana } from "./startDevnetSolana.js";

/** Solana's chain id (the spec's). */
export const DEVNET_SOLANA_CHAIN_ID = 792703809;
/** How a chains file names SOL: the System Program's address. */
export const SOLANA_NATIVE_CURRENCY = "11111111111111111111111111111111";

/**
 * The devnet Solana as an entry of the manifest's `chains[]` (vmType svm), with its funded test `accounts`; a
 * `secretKey` is the base58 of the 64-byte secret key, what Solana wallets export.
 */
export function devnetSolanaChain(solana: DevnetSolana, name = "solana-devnet") {
  return {
    id: DEVNET_SOLANA_CHAIN_ID,
    vmType: "svm" as const,
    name,
    rpcUrl: solana.rpcUrl,
    wsUrl: solana.wsUrl,
    depository: solana.depository.publicKey.toBase58(),
    solver: solana.solver.publicKey.toBase58(),
    currencies: [
      { symbol: "SOL", address: SOLANA_NATIVE_CURRENCY, decimals: 9 as const },
      { symbol: "USDC", address: solana.usdcMint, decimals: 6 as const },
    ],
    accounts: solana.accounts.map((a) => ({ address: a.publicKey.toBase58(), secretKey: bs58.encode(a.secretKey) })),
  };
}
