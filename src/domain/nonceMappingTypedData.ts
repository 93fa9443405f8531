import type { Address, Hex } from "viem";
import { PERPS_CHAIN_NAME } from "./perpsChain.js";

export type NonceMappingMessage = { wallet: Address; depositor: Address; nonce: bigint; id: Hex };

/**
 * The EIP-712 message of the `authorize` step (spec, Perps exchange chain flow, domain version 2). The domain's
 * chain id is the one the wallet signs on; it authorizes only and never routes funds.
 */
export function nonceMappingTypedData(message: NonceMappingMessage, signatureChainId: number) {
  return {
    domain: {
      name: "CrossfillNonceMapping",
      version: "2",
      chainId: signatureChainId,
      verifyingContract: "0x0000000000000000000000000000000000000000",
    },
    types: {
      NonceMapping: [
        { name: "chainId", type: "string" },
        { name: "wallet", type: "address" },
        { name: "depositor", type: "address" },
        { name: "id", type: "bytes32" },
        { name: "nonce", type: "uint256" },
      ],
    },
    primaryType: "NonceMapping",
    message: { chainId: PERPS_CHAIN_NAME, ...message },
  } as const;
}
