import type { Hex } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import { type NonceMappingMessage, nonceMappingTypedData } from "../../src/domain/nonceMappingTypedData.js";

/** What a wallet signs in the authorize step, as the official client does it (viem's signTypedData). */
export function signNonceMapping(
  account: PrivateKeyAccount,
  message: NonceMappingMessage,
  signatureChainId = 1,
): Promise<Hex> {
  return account.signTypedData(nonceMappingTypedData(message, signatureChainId));
}
