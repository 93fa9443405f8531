import { type Address, type Hex, pad, recoverTypedDataAddress, zeroAddress } from "viem";
import type { ExchangeRequest } from "./parseExchangeRequest.js";
import { eip712TypesOf, userSignedActionTypes } from "./userSignedActionTypes.js";

/**
 * The address whose key signed a user-signed action: EIP-712 over the action's own type list, in the domain
 * `HyperliquidSignTransaction` v1 on the chain the action names in `signatureChainId`. A tampered field does not
 * fail here, it recovers another address (which then holds nothing); undefined only for a malformed signature.
 */
export async function recoverActionSigner({ action, signature }: ExchangeRequest): Promise<Address | undefined> {
  try {
    return await recoverTypedDataAddress({
      domain: {
        name: "HyperliquidSignTransaction",
        version: "1",
        chainId: BigInt(action.signatureChainId),
        verifyingContract: zeroAddress,
      },
      types: eip712TypesOf(action.type),
      primaryType: userSignedActionTypes[action.type].primaryType,
      message: action,
      signature: { r: pad(signature.r as Hex), s: pad(signature.s as Hex), v: BigInt(signature.v) },
    });
  } catch {
    return undefined;
  }
}
