import type { Address, Hex, TransactionReceipt } from "viem";
import { depositoryAbi } from "../../contracts/abis.js";
import type { DevnetChain, DevnetSigner } from "../../devnet/startDevnetChains.js";
import { devnetWalletClient } from "../../devnet/devnetWalletClient.js";

/** Pays an order in the chain's native currency into its Depository, as a wallet would; the mined receipt. */
export async function depositNative(
  chain: DevnetChain,
  payer: DevnetSigner,
  orderId: string,
  amount: bigint,
): Promise<TransactionReceipt> {
  const wallet = devnetWalletClient({ rpcUrl: chain.rpcUrl, chainId: chain.id, privateKey: payer.privateKey });
  const hash = await wallet.writeContract({
    address: chain.depository as Address,
    abi: depositoryAbi,
    functionName: "depositNative",
    args: [payer.address, orderId as Hex],
    value: amount,
  });
  return wallet.waitForTransactionReceipt({ hash });
}
