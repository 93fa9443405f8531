import { encodeAbiParameters, hashStruct, keccak256, stringToHex } from "viem";
import { describe, expect, it } from "vitest";
import { eip712TypesOf, isUserSignedActionType, userSignedActionTypes } from "./userSignedActionTypes.js";

/** EIP-712 hashStruct written out by hand from the SDKs' type string: every field is a string but the last uint64. */
function expectedHash(typeString: string, strings: string[], nonce: bigint) {
  const words = [keccak256(stringToHex(typeString)), ...strings.map((s) => keccak256(stringToHex(s)))];
  return keccak256(
    encodeAbiParameters([...words.map(() => ({ type: "bytes32" })), { type: "uint64" }], [...words, nonce]),
  );
}

describe("userSignedActionTypes", () => {
  it("hashes each action with the struct the exchange's SDKs sign (field order is part of the hash)", () => {
    const hashOf = (type: keyof typeof userSignedActionTypes, message: Record<string, unknown>) =>
      hashStruct({ data: message, primaryType: userSignedActionTypes[type].primaryType, types: eip712TypesOf(type) });
    const d = "0x000000000000000000000000000000000000beef";
    expect(hashOf("usdSend", { hyperliquidChain: "Testnet", destination: d, amount: "1", time: 7n })).toBe(
      expectedHash(
        "HyperliquidTransaction:UsdSend(string hyperliquidChain,string destination,string amount,uint64 time)",
        ["Testnet", d, "1"],
        7n,
      ),
    );
    expect(
      hashOf("spotSend", { hyperliquidChain: "Testnet", destination: d, token: "T:0x1", amount: "1", time: 7n }),
    ).toBe(
      expectedHash(
        "HyperliquidTransaction:SpotSend(string hyperliquidChain,string destination,string token,string amount,uint64 time)",
        ["Testnet", d, "T:0x1", "1"],
        7n,
      ),
    );
    const sendAsset = ["Testnet", d, "", "spot", "T:0x1", "1", ""];
    expect(
      hashOf("sendAsset", {
        hyperliquidChain: "Testnet",
        destination: d,
        sourceDex: "",
        destinationDex: "spot",
        token: "T:0x1",
        amount: "1",
        fromSubAccount: "",
        nonce: 7n,
      }),
    ).toBe(
      expectedHash(
        "HyperliquidTransaction:SendAsset(string hyperliquidChain,string destination,string sourceDex,string destinationDex,string token,string amount,string fromSubAccount,uint64 nonce)",
        sendAsset,
        7n,
      ),
    );
  });

  it("knows the three transfers only", () => {
    expect(["usdSend", "spotSend", "sendAsset"].every(isUserSignedActionType)).toBe(true);
    expect(["withdraw3", "toString", "order", 1].some(isUserSignedActionType)).toBe(false);
  });
});
