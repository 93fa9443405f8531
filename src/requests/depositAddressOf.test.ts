import { describe, expect, it } from "vitest";
import { depositAddressOf } from "./depositAddressOf.js";

const deposit = (txHash: string, chainId: number, reorg: Record<string, unknown> | null = null) => ({
  chainId,
  txHash,
  logIndex: 0,
  depositor: `payer of ${txHash}`,
  currency: "btc",
  amount: 1n,
  blockNumber: 1n,
  timestamp: 1n,
  txFee: null,
  reorg,
});

describe("depositAddressOf", () => {
  it("is null without an address, else the address with the first live origin deposit's payer and hash", () => {
    expect(depositAddressOf({ depositAddress: null, deposits: [], originChainId: 1 })).toBeNull();
    const depositAddress = { address: "bcrt1qx", type: "strict" as const, supersededByRequestId: null };
    expect(depositAddressOf({ depositAddress, deposits: [], originChainId: 1 })).toEqual({
      address: "bcrt1qx",
      type: "strict",
      depositor: null,
      depositTxHash: null,
    });
    const deposits = [deposit("reorged", 1, { reason: "gone" }), deposit("other chain", 2), deposit("paid", 1)];
    expect(depositAddressOf({ depositAddress, deposits, originChainId: 1 })).toMatchObject({
      depositor: "payer of paid",
      depositTxHash: "paid",
    });
  });
});
