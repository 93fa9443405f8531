import { type Address, type PublicClient, createPublicClient, defineChain, erc20Abi, http, zeroAddress } from "viem";
import type { EvmChainConfig } from "../chainConfig.js";
import { keepAliveFetch } from "./keepAliveFetch.js";

/** A viem chain definition for a configured chain, for public and wallet clients alike. */
export function toViemChain(chain: EvmChainConfig) {
  return defineChain({
    id: chain.id,
    name: chain.displayName ?? chain.name,
    nativeCurrency: chain.nativeCurrency,
    rpcUrls: { default: { http: [chain.rpcUrl], ...(chain.wsUrl ? { webSocket: [chain.wsUrl] } : {}) } },
  });
}

/** viem's own default limit on an RPC answer. */
const MAX_RPC_RESPONSE_BYTES = 10 * 1024 * 1024;

/** The chain's JSON-RPC over HTTP, with its configured timeout. */
function evmTransport(chain: EvmChainConfig) {
  // No JSON-RPC batching: viem's batch waits a timer tick per call, which costs a quote more than it saves.
  // The size limit is the fetch's, which reads the answer whole.
  return http(chain.rpcUrl, {
    retryCount: 1,
    timeout: chain.rpcTimeoutMs,
    fetchFn: keepAliveFetch({ maxBodyBytes: MAX_RPC_RESPONSE_BYTES }),
    maxResponseBodySize: false,
  });
}

export type EvmChainClient = {
  chain: EvmChainConfig;
  publicClient: PublicClient;
  /** Gas price for fee estimates; cached briefly because quotes are hot and it moves once per block. */
  gasPrice(): Promise<bigint>;
  balanceOf(owner: Address, currency: Address): Promise<bigint>;
  allowance(owner: Address, token: Address, spender: Address): Promise<bigint>;
};

export function createEvmChainClient(chain: EvmChainConfig, options: { gasPriceTtlMs?: number } = {}): EvmChainClient {
  const publicClient = createPublicClient({
    chain: toViemChain(chain),
    transport: evmTransport(chain),
    cacheTime: 0,
  }) as PublicClient;
  const ttl = options.gasPriceTtlMs ?? 1000;
  let cached: { value: Promise<bigint>; at: number } | undefined;
  return {
    chain,
    publicClient,
    gasPrice() {
      const now = Date.now();
      if (!cached || now - cached.at > ttl) {
        const value = publicClient.getGasPrice();
        cached = { value, at: now };
        value.catch(() => (cached = undefined));
      }
      return cached.value;
    },
    balanceOf(owner, currency) {
      if (currency === zeroAddress) return publicClient.getBalance({ address: owner });
      return publicClient.readContract({ address: currency, abi: erc20Abi, functionName: "balanceOf", args: [owner] });
    },
    allowance(owner, token, spender) {
      return publicClient.readContract({
        address: token,
        abi: erc20Abi,
        functionName: "allowance",
        args: [owner, spender],
      });
    },
  };
}
