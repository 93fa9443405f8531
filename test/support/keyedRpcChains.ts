import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type ChainConfig, loadChainsFile } from "../../src/chains/chainConfig.js";

/** The provider key in the solver's RPC URLs of `keyedRpcChains`: it must never leave the process. */
export const RPC_KEY = "SECRETKEY";
export const KEYED_RPC_URL = `https://node.example/v2/${RPC_KEY}`;
export const KEYED_WS_URL = `wss://user:${RPC_KEY}@node.example/ws?apikey=${RPC_KEY}`;

/**
 * A chains file as an operator writes it for a paid provider, loaded as a role loads it: chain 31338 with keyed RPC
 * URLs only, chain 31339 with the same plus the URLs it publishes (`public`).
 */
export function keyedRpcChains(
  publicUrls = { publicRpcUrl: "https://rpc.example", publicWsUrl: "wss://rpc.example" },
): ChainConfig[] {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "crossfill-keyed-")), "chains.json");
  const chain = (id: number) => ({
    id,
    name: `chain-${id}`,
    rpcUrl: KEYED_RPC_URL,
    wsUrl: KEYED_WS_URL,
    depository: "0x00000000000000000000000000000000000000d0",
    receiver: "0x00000000000000000000000000000000000000e0",
  });
  writeFileSync(file, JSON.stringify({ chains: [chain(31338), { ...chain(31339), ...publicUrls }] }));
  return loadChainsFile(file);
}
