import { type Hex, parseSignature, type PrivateKeyAccount, zeroAddress } from "viem";
import type { ExchangeRequest, UserSignedAction } from "./parseExchangeRequest.js";
import { eip712TypesOf, userSignedActionTypes } from "./userSignedActionTypes.js";

/**
 * Signs a user-signed action as the exchange's SDKs do (domain `HyperliquidSignTransaction` v1 on the action's
 * `signatureChainId`, message = the action) and returns the `POST /exchange` body `{action, nonce, signature}`.
 */
export async function signUserSignedAction(
  signer: PrivateKeyAccount,
  action: UserSignedAction,
): Promise<ExchangeRequest> {
  const signature = await signer.signTypedData({
    domain: {
      name: "HyperliquidSignTransaction",
      version: "1",
      chainId: parseInt(action.signatureChainId, 16),
      verifyingContract: zeroAddress,
    },
    types: eip712TypesOf(action.type),
    primaryType: userSignedActionTypes[action.type].primaryType,
    message: action,
  });
  const { r, s, v } = parseSignature(signature);
  const nonce = action.type === "sendAsset" ? action.nonce : action.time;
  return { action, nonce, signature: { r: r as Hex, s: s as Hex, v: Number(v) as 27 | 28 } };
}
