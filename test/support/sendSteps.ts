import { type Hex, createPublicClient, createWalletClient, http } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import type { EvmChainConfig } from "../../src/chains/chainConfig.js";
import { toViemChain } from "../../src/chains/evm/evmChainClient.js";

type QuoteSteps = {
  steps: Array<{ id: string; items: Array<{ data: { to: Hex; data: Hex; value: string; chainId: number } }> }>;
};

/** Sends every transaction step of a quote in order, as a wallet would, waiting for each receipt. */
export async function sendSteps(
  quote: QuoteSteps,
  account: PrivateKeyAccount,
  chain: EvmChainConfig,
): Promise<Record<string, Hex>> {
  const viemChain = toViemChain(chain);
  const wallet = createWalletClient({ account, chain: viemChain, transport: http(chain.rpcUrl) });
  const client = createPublicClient({ chain: viemChain, transport: http(chain.rpcUrl), pollingInterval: 50 });
  const hashes: Record<string, Hex> = {};
  for (const step of quote.steps) {
    for (const { data } of step.items) {
      if (data.chainId !== chain.id) throw new Error(`step ${step.id} is for chain ${data.chainId}, not ${chain.id}`);
      const hash = await wallet.sendTransaction({ to: data.to, data: data.data, value: BigInt(data.value) });
      const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
      if (receipt.status !== "success") throw new Error(`step ${step.id} reverted: ${hash}`);
      hashes[step.id] = hash;
    }
  }
  return hashes;
}
