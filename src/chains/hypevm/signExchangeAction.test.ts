import { recoverTypedDataAddress, zeroAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { signExchangeAction } from "./signExchangeAction.js";

const types = {
  "Example:Send": [
    { name: "destination", type: "string" },
    { name: "time", type: "uint64" },
  ],
};

describe("signExchangeAction", () => {
  it("signs in the exchange's domain on the action's signatureChainId, nonce from time or nonce", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const action = { signatureChainId: "0xa4b1", destination: "0xabc", time: 42 };
    const signed = await signExchangeAction(account, action, types);
    expect(signed.nonce).toBe(42);
    expect(signed.action).toBe(action);
    const signer = await recoverTypedDataAddress({
      domain: { name: "HyperliquidSignTransaction", version: "1", chainId: 42161, verifyingContract: zeroAddress },
      types,
      primaryType: "Example:Send",
      message: action,
      signature: { ...signed.signature, v: BigInt(signed.signature.v) },
    });
    expect(signer).toBe(account.address);
    const byNonce = { "Example:Asset": [{ name: "nonce", type: "uint64" }] };
    expect((await signExchangeAction(account, { signatureChainId: "0x1", nonce: 7 }, byNonce)).nonce).toBe(7);
    await expect(signExchangeAction(account, { signatureChainId: "0x1" }, { "Example:None": [] })).rejects.toThrow(
      /no nonce/,
    );
  });
});
