import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import type { ExchangeRequest } from "./parseExchangeRequest.js";
import { recoverActionSigner } from "./recoverActionSigner.js";
import { signUserSignedAction } from "./signUserSignedAction.js";

// A known-answer vector published with @nktkas/hyperliquid's signing tests (MIT): a throwaway key, a usdSend and
// the signature that SDK makes of it. It checks the devnet against the SDK's own output, not against our signer.
const sdkKey = "0x822e9959e022b78423eb653a62ea0020cd283e71a2a8133a6ff2aeffaf373cff";
const sdkVector: ExchangeRequest = {
  action: {
    type: "usdSend",
    hyperliquidChain: "Mainnet",
    signatureChainId: "0x66eee",
    destination: "0x1234567890123456789012345678901234567890",
    amount: "1000",
    time: 1234567890,
  },
  nonce: 1234567890,
  signature: {
    r: "0xf777c38efe7c24cc71209526ae608f4e384d0586edf578f0e97b4b9f7c7adcc6",
    s: "0x104a4a97c48ae77bf5bd777bdd45fe72d8f5ff29116b5ff64fd8cfe4ea610786",
    v: 28,
  },
};

describe("recoverActionSigner", () => {
  it("recovers the SDK's signer from the SDK's signature, and our signer makes the same signature", async () => {
    const account = privateKeyToAccount(sdkKey);
    expect(await recoverActionSigner(sdkVector)).toBe(account.address);
    expect((await signUserSignedAction(account, sdkVector.action)).signature).toEqual(sdkVector.signature);
  });

  it("reads r and s written without leading zeros, as the Python SDK writes them", async () => {
    const account = privateKeyToAccount(sdkKey);
    // Find a signature whose s starts with a zero byte, then drop its leading zeros.
    for (let time = 1; time < 2000; time++) {
      const signed = await signUserSignedAction(account, { ...sdkVector.action, type: "usdSend", time });
      if (!signed.signature.s.startsWith("0x00")) continue;
      const short = {
        ...signed,
        signature: { ...signed.signature, s: `0x${signed.signature.s.slice(2).replace(/^0+/, "")}` },
      };
      expect(short.signature.s.length).toBeLessThan(66);
      expect(await recoverActionSigner(short)).toBe(account.address);
      return;
    }
    throw new Error("no signature with a leading zero byte in s found");
  });

  it("recovers another address from a tampered action, and nothing from a malformed signature", async () => {
    const tampered = { ...sdkVector, action: { ...sdkVector.action, amount: "1001" } };
    const other = await recoverActionSigner(tampered);
    expect(other).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(other).not.toBe(privateKeyToAccount(sdkKey).address);
    expect(
      await recoverActionSigner({ ...sdkVector, signature: { ...sdkVector.signature, r: "0x0" } }),
    ).toBeUndefined();
  });
});
