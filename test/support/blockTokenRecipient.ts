import type { Address } from "viem";
import { testTokenAbi } from "../../contracts/abis.js";
import { devnetWalletClient } from "../../devnet/devnetWalletClient.js";
import type { EvmChainConfig } from "../../src/chains/chainConfig.js";
import { createEvmChainClient } from "../../src/chains/evm/evmChainClient.js";

/** Makes a devnet test token refuse transfers to `recipient` (its owner is the solver), waiting for the receipt. */
export async function blockTokenRecipient(
  chain: EvmChainConfig,
  token: Address,
  recipient: Address,
  ownerKey: `0x${string}`,
): Promise<void> {
  const owner = devnetWalletClient({ rpcUrl: chain.rpcUrl, chainId: chain.id, privateKey: ownerKey });
  const hash = await owner.writeContract({
    address: token,
    abi: testTokenAbi,
    functionName: "setBlocked",
    args: [recipient, true],
  });
  await createEvmChainClient(chain).publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
}
