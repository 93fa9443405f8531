import { recoverTypedDataAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { appFeeClaimTypedData } from "./appFeeClaimTypedData.js";

describe("appFeeClaimTypedData", () => {
  it("binds every field of the payout: a change in any one recovers another signer", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const message = {
      id: `0x${"11".repeat(32)}`,
      wallet: account.address,
      chainId: 31338n,
      currency: "0x00000000000000000000000000000000000000c1",
      recipient: "0x00000000000000000000000000000000000000bb",
      amount: 1_000_000n,
      deadline: 1_800_000_000n,
    } as const;
    const typedData = appFeeClaimTypedData(message);
    expect(typedData.domain).toEqual({ name: "CrossfillAppFeeClaim", version: "1", chainId: 31338 });
    const signature = await account.signTypedData(typedData);
    expect(await recoverTypedDataAddress({ ...typedData, signature })).toBe(account.address);
    const changes = [{ amount: 1_000_001n }, { recipient: account.address }, { deadline: 1n }, { chainId: 1n }];
    for (const change of changes) {
      const other = appFeeClaimTypedData({ ...message, ...change });
      expect(await recoverTypedDataAddress({ ...other, signature })).not.toBe(account.address);
    }
  });
});
