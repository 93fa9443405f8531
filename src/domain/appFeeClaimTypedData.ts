import type { Address, Hex } from "viem";

/** What a wallet signs to claim its app fees: the payout, bound to one id (it can pay once) and a deadline. */
export type AppFeeClaimMessage = {
  id: Hex;
  wallet: Address;
  chainId: bigint;
  currency: Address;
  recipient: Address;
  amount: bigint;
  /** Unix seconds after which the signature no longer claims anything. */
  deadline: bigint;
};

/**
 * The EIP-712 typed data of the claim step. The domain's chain id is the claim's chain (the one a wallet is switched
 * to for the step), and no contract verifies it: the service checks the signature before it pays.
 */
export function appFeeClaimTypedData(message: AppFeeClaimMessage) {
  return {
    domain: { name: "CrossfillAppFeeClaim", version: "1", chainId: Number(message.chainId) },
    types: {
      AppFeeClaim: [
        { name: "id", type: "bytes32" },
        { name: "wallet", type: "address" },
        { name: "chainId", type: "uint256" },
        { name: "currency", type: "address" },
        { name: "recipient", type: "address" },
        { name: "amount", type: "uint256" },
        { name: "deadline", type: "uint256" },
      ],
    },
    primaryType: "AppFeeClaim",
    message,
  } as const;
}
