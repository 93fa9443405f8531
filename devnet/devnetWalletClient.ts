import { createWalletClient, defineChain, type Hex, http, publicActions } from "viem";
import { privateKeyToAccount } from "viem/accounts";

export type DevnetWalletClientOptions = { rpcUrl: string; chainId: number; privateKey: Hex };

/**
 * A viem wallet client (with public actions) for a devnet chain. Polls every 50 ms without caching:
 * viem's defaults (4 s polling, block number cached) make local chains look slow.
 */
export function devnetWalletClient({ rpcUrl, chainId, privateKey }: DevnetWalletClientOptions) {
  const chain = defineChain({
    id: chainId,
    name: `devnet ${chainId}`,
    nativeCurrency: { symbol: "ETH", name: "Ether", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  return createWalletClient({
    account: privateKeyToAccount(privateKey),
    chain,
    transport: http(rpcUrl),
    pollingInterval: 50,
    cacheTime: 0,
  }).extend(publicActions);
}

export type DevnetWalletClient = ReturnType<typeof devnetWalletClient>;
