import { HttpRequestError, TransactionReceiptNotFoundError } from "viem";
import { describe, expect, it } from "vitest";
import { checkEvmDeposit } from "./checkEvmDeposit.js";
import type { EvmChainClient } from "./evmChainClient.js";

const deposit = {
  chainId: 31338,
  txHash: `0x${"aa".repeat(32)}`,
  logIndex: 0,
  blockNumber: 10n,
  blockHash: `0x${"bb".repeat(32)}`,
} as never;

/** A chain client whose head is block 20 and whose receipt lookup does what `receipt` says. */
const clientWith = (receipt: () => Promise<unknown>) =>
  ({ publicClient: { getBlockNumber: async () => 20n, getTransactionReceipt: receipt } }) as unknown as EvmChainClient;

describe("checkEvmDeposit", () => {
  it("takes a deposit for reorged only when the node says its receipt does not exist, and rethrows a failing node", async () => {
    const gone = clientWith(() => Promise.reject(new TransactionReceiptNotFoundError({ hash: "0x00" })));
    expect(await checkEvmDeposit(gone, deposit, 1)).toMatchObject({
      state: "reorged",
      reorg: { reason: "deposit transaction not found" },
    });
    const failing = clientWith(() =>
      Promise.reject(new HttpRequestError({ url: "http://127.0.0.1:1", cause: new Error("fetch failed") })),
    );
    await expect(checkEvmDeposit(failing, deposit, 1)).rejects.toBeInstanceOf(HttpRequestError);
    const there = clientWith(async () => ({ status: "success", blockHash: `0x${"BB".repeat(32)}` }));
    expect(await checkEvmDeposit(there, deposit, 1)).toEqual({ state: "final" });
    expect(await checkEvmDeposit(there, deposit, 15)).toEqual({ state: "confirming", missingBlocks: 4 });
  });
});
