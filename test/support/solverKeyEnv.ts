import { privateKeyToAccount } from "viem/accounts";

/**
 * The EVM solver's variables a spawned role is started with, as an operator would: the worker its key, the gateway
 * its address only (it refuses the key), an indexer neither.
 */
export function solverKeyEnv(role: string, privateKey: string): Record<string, string> {
  if (role === "worker") return { SOLVER_PRIVATE_KEY: privateKey };
  if (role === "api") return { SOLVER_ADDRESS: privateKeyToAccount(privateKey as `0x${string}`).address };
  return {};
}
