import { hashTypedData, recoverTypedDataAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { nonceMappingTypedData } from "./nonceMappingTypedData.js";

const account = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
const message = {
  wallet: account.address,
  depositor: account.address,
  nonce: 1_732_000_000_000n,
  id: `0x${"ab".repeat(32)}`,
} as const;

describe("nonceMappingTypedData", () => {
  it("is the spec's NonceMapping: domain version 2, zero verifying contract, perps chain by name", () => {
    const typed = nonceMappingTypedData(message, 8453);
    expect(typed.domain).toEqual({
      name: "CrossfillNonceMapping",
      version: "2",
      chainId: 8453,
      verifyingContract: "0x0000000000000000000000000000000000000000",
    });
    expect(typed.types.NonceMapping.map((field) => `${field.type} ${field.name}`)).toEqual([
      "string chainId",
      "address wallet",
      "address depositor",
      "bytes32 id",
      "uint256 nonce",
    ]);
    expect(typed.message.chainId).toBe("hyperliquid");
  });

  it("binds the signature chain: a signature made on one chain recovers another signer on a different chain", async () => {
    const signature = await account.signTypedData(nonceMappingTypedData(message, 42161));
    expect(await recoverTypedDataAddress({ ...nonceMappingTypedData(message, 42161), signature })).toBe(
      account.address,
    );
    expect(await recoverTypedDataAddress({ ...nonceMappingTypedData(message, 1), signature })).not.toBe(
      account.address,
    );
    expect(hashTypedData(nonceMappingTypedData(message, 1))).not.toBe(
      hashTypedData(nonceMappingTypedData({ ...message, nonce: 2n }, 1)),
    );
  });
});
