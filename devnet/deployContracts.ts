import { type Address, getAddress, type Hash, type Hex } from "viem";
import {
  callTargetArtifact,
  depositoryArtifact,
  receiverArtifact,
  testTokenArtifact,
  wrappedNativeArtifact,
} from "../contracts/artifacts.js";
import { devnetWalletClient } from "./devnetWalletClient.js";

export type DevnetCurrency = {
  symbol: string;
  name: string;
  address: Address;
  decimals: number;
  /** The chain's wrapped native currency (WETH9: `deposit`/`withdraw`), not a mintable test token. */
  wrapsNative?: true;
};

export type DeployedContracts = {
  depository: Address;
  receiver: Address;
  currencies: DevnetCurrency[];
  callTarget: Address;
  /** Block of the first deployment: indexers need not look earlier. */
  startBlock: number;
};

export type DeployContractsOptions = {
  rpcUrl: string;
  chainId: number;
  deployerPrivateKey: Hex;
  /** Owner of the Depository (it refunds) and the only account allowed to fill on the Receiver. */
  solverAddress: Address;
};

// Order matters: with a fresh deployer (nonce 0) every chain gets the same addresses.
const usdcToken = { symbol: "USDC", name: "USD Coin", decimals: 6 } as const;
const wethToken = { symbol: "WETH", name: "Wrapped Ether", decimals: 18, wrapsNative: true } as const;

/**
 * Deploys Depository, Receiver, the USDC test token, WETH (WETH9-style, the chain's wrapped native) and CallTarget, and waits for every receipt. The
 * transactions are sent back to back with explicit nonces, so with a block time they share a block.
 */
export async function deployContracts(options: DeployContractsOptions): Promise<DeployedContracts> {
  const { rpcUrl, chainId, deployerPrivateKey, solverAddress } = options;
  const client = devnetWalletClient({ rpcUrl, chainId, privateKey: deployerPrivateKey });
  let nonce = await client.getTransactionCount({ address: client.account.address, blockTag: "pending" });

  const hashes: Hash[] = [];
  hashes.push(await client.deployContract({ ...depositoryArtifact, args: [solverAddress], nonce: nonce++ }));
  hashes.push(await client.deployContract({ ...receiverArtifact, args: [solverAddress], nonce: nonce++ }));
  hashes.push(
    await client.deployContract({
      ...testTokenArtifact,
      args: [usdcToken.name, usdcToken.symbol, usdcToken.decimals],
      nonce: nonce++,
    }),
  );
  hashes.push(await client.deployContract({ ...wrappedNativeArtifact, nonce: nonce++ }));
  hashes.push(await client.deployContract({ ...callTargetArtifact, nonce: nonce++ }));

  const receipts = await Promise.all(hashes.map((hash) => client.waitForTransactionReceipt({ hash })));
  const addresses = receipts.map((r, i) => {
    if (r.status !== "success" || !r.contractAddress)
      throw new Error(`deployment ${i} on chain ${chainId} failed (tx ${r.transactionHash})`);
    return getAddress(r.contractAddress);
  });
  const [depository, receiver, usdc, weth, callTarget] = addresses;
  return {
    depository,
    receiver,
    currencies: [
      { ...usdcToken, address: usdc },
      { ...wethToken, address: weth },
    ],
    callTarget,
    startBlock: Number(
      receipts.reduce((min, r) => (r.blockNumber < min ? r.blockNumber : min), receipts[0].blockNumber),
    ),
  };
}
