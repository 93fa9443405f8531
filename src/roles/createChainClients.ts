import type { ChainConfig } from "../chains/chainConfig.js";
import { type EvmChainClient, createEvmChainClient } from "../chains/evmChainClient.js";

/** One client per configured chain; asking for an unconfigured chain is a programming error. */
export function createChainClients(chains: readonly ChainConfig[]): (chainId: number) => EvmChainClient {
  const clients = new Map(chains.map((chain) => [chain.id, createEvmChainClient(chain)]));
  return (chainId) => {
    const client = clients.get(chainId);
    if (!client) throw new Error(`no client for chain ${chainId}`);
    return client;
  };
}
