import type { LocalAccount } from "viem";
import { privateKeyToAccount } from "viem/accounts";

/** The solver's key on EVM chains: it signs fills, refunds, approvals and orders. */
export type EvmSolver = LocalAccount;

export function evmSolver(privateKey: string): EvmSolver {
  return privateKeyToAccount(privateKey as `0x${string}`);
}
