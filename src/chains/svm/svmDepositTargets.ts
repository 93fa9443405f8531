import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import { PublicKey } from "@solana/web3.js";
import type { SvmChainConfig } from "./svmChainFamily.js";
import type { SvmDepositTargets } from "./svmDepositFacts.js";
import { SOLANA_NATIVE_CURRENCY } from "./svmFamily.js";

/**
 * Where deposits of a chain arrive: its depository, and the depository's associated token account of each listed mint
 * (of the classic Token program, as the deposit step pays them).
 */
export function svmDepositTargets(chain: SvmChainConfig): SvmDepositTargets {
  const depository = new PublicKey(chain.depository);
  return {
    depository: chain.depository,
    tokenAccounts: new Map(
      chain.currencies
        .filter((currency) => currency.address !== SOLANA_NATIVE_CURRENCY)
        .map((currency) => [
          getAssociatedTokenAddressSync(new PublicKey(currency.address), depository, true).toBase58(),
          currency.address,
        ]),
    ),
  };
}
