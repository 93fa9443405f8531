import { type Address, getContractAddress } from "viem";

/**
 * The CallExecutor a Receiver runs destination calls through: the Receiver deploys it from its constructor, its first
 * CREATE (a contract's nonce starts at 1), so its address follows from the Receiver's alone and needs no config.
 */
export function callExecutorAddress(receiver: string): Address {
  return getContractAddress({ from: receiver as Address, nonce: 1n });
}
