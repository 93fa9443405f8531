import { type LocalAccount, getAddress } from "viem";
import { privateKeyToAccount, toAccount } from "viem/accounts";

/** The solver's key on EVM chains: it signs fills, refunds, approvals and orders. */
export type EvmSolver = LocalAccount;

export function evmSolver(privateKey: string): EvmSolver {
  return privateKeyToAccount(privateKey as `0x${string}`);
}

/**
 * The solver as the gateway knows it: its address, and no key. Every signature is refused; the gateway's adapters
 * only read with the address (balances, simulations) and have orders signed by the order signer.
 */
export function evmSolverAddress(address: string): EvmSolver {
  const refuse = (): never => {
    throw new Error(`this role holds only the solver's address ${address}, not its key`);
  };
  return toAccount({
    address: getAddress(address),
    signMessage: async () => refuse(),
    signTransaction: async () => refuse(),
    signTypedData: async () => refuse(),
  });
}
