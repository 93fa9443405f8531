import { type Hex, parseSignature, type PrivateKeyAccount, zeroAddress } from "viem";

/** What `POST /exchange` takes for a user-signed action. */
export type SignedExchangeAction<A> = { action: A; nonce: number; signature: { r: Hex; s: Hex; v: 27 | 28 } };

/**
 * Signs a user-signed action as the exchange's SDKs do: EIP-712 over the action's own struct (`types`, whose one
 * entry is the primary type) in the domain `HyperliquidSignTransaction` v1 on the chain the action names in
 * `signatureChainId`, the action itself as the message; `nonce` is the action's own (`nonce`, or `time`).
 */
export async function signExchangeAction<A extends { signatureChainId: string; nonce?: number; time?: number }>(
  signer: PrivateKeyAccount,
  action: A,
  types: Record<string, ReadonlyArray<{ name: string; type: string }>>,
): Promise<SignedExchangeAction<A>> {
  const [primaryType] = Object.keys(types);
  const signature = await signer.signTypedData({
    domain: {
      name: "HyperliquidSignTransaction",
      version: "1",
      chainId: parseInt(action.signatureChainId, 16),
      verifyingContract: zeroAddress,
    },
    types,
    primaryType: primaryType!,
    message: action as Record<string, unknown>,
  });
  const { r, s, v } = parseSignature(signature);
  const nonce = action.nonce ?? action.time;
  if (nonce === undefined) throw new Error("the action carries no nonce");
  return { action, nonce, signature: { r, s, v: Number(v) as 27 | 28 } };
}
