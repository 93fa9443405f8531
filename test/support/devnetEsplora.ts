import type { TestStack } from "./startTestStack.js";

/** Reads of the test stack's devnet Esplora the Bitcoin flows assert on. */
export function devnetEsplora(stack: () => TestStack) {
  const esplora = async (path: string) => (await fetch(`${stack().bitcoin!.devnet.esploraUrl}${path}`)).json();
  /** Satoshis an address holds, its mempool payments and change included (what a wallet shows). */
  const holdings = async (address: string) => {
    const { chain_stats: chain, mempool_stats: mempool } = await esplora(`/address/${address}`);
    return BigInt(chain.funded_txo_sum - chain.spent_txo_sum + mempool.funded_txo_sum - mempool.spent_txo_sum);
  };
  /** Satoshis an address can spend: confirmed funded − confirmed spent − mempool spent (the quote's balance rule). */
  const spendable = async (address: string) => {
    const { chain_stats: chain, mempool_stats: mempool } = await esplora(`/address/${address}`);
    return BigInt(chain.funded_txo_sum - chain.spent_txo_sum - mempool.spent_txo_sum);
  };
  return { esplora, holdings, spendable };
}
