import { type Address, type PublicClient, createPublicClient, defineChain, erc20Abi, http, zeroAddress } from "viem";
import type { EvmChainConfig } from "../chainConfig.js";
import { batchingFetch } from "./batchingFetch.js";
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

/** viem's own default timeout of an RPC call. */
const DEFAULT_RPC_TIMEOUT_MS = 10_000;
/** Well under the batch limits of public providers (100 to 1,000 calls). */
const DEFAULT_RPC_BATCH_SIZE = 50;

/**
 * The chain's JSON-RPC over HTTP, with its configured timeout. Not viem's batching (it waits a timer tick per call,
 * which costs a quote more than it saves); the size limit is the fetch's, which reads the answer whole.
 */
function evmTransport(chain: EvmChainConfig, fetchFn: ReturnType<typeof keepAliveFetch>) {
  return http(chain.rpcUrl, { retryCount: 1, timeout: chain.rpcTimeoutMs, fetchFn, maxResponseBodySize: false });
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
  const fetchFn = keepAliveFetch({ maxBodyBytes: MAX_RPC_RESPONSE_BYTES });
  const publicClient = createPublicClient({
    chain: toViemChain(chain),
    transport: evmTransport(chain, fetchFn),
    cacheTime: 0,
  }) as PublicClient;
  // The quote's balance and allowance reads, batched with the other quotes' of the same turn (batchingFetch).
  const maxBatch = chain.rpcBatchSize ?? DEFAULT_RPC_BATCH_SIZE;
  const reads =
    maxBatch === 1
      ? publicClient
      : createPublicClient({
          chain: toViemChain(chain),
          transport: evmTransport(
            chain,
            batchingFetch(fetchFn, { maxBatch, timeoutMs: chain.rpcTimeoutMs ?? DEFAULT_RPC_TIMEOUT_MS }),
          ),
          cacheTime: 0,
        });
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
      if (currency === zeroAddress) return reads.getBalance({ address: owner });
      return reads.readContract({ address: currency, abi: erc20Abi, functionName: "balanceOf", args: [owner] });
    },
    allowance(owner, token, spender) {
      return reads.readContract({
        address: token,
        abi: erc20Abi,
        functionName: "allowance",
        args: [owner, spender],
      });
    },
  };
}
