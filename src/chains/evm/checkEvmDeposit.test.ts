import {
  type Hex,
  HttpRequestError,
  TransactionReceiptNotFoundError,
  encodeAbiParameters,
  encodeEventTopics,
  zeroAddress,
} from "viem";
import { depositoryAbi } from "../../../contracts/abis.js";
import { describe, expect, it } from "vitest";
import { checkEvmDeposit } from "./checkEvmDeposit.js";
import type { EvmChainClient } from "./evmChainClient.js";

const TX_HASH = `0x${"aa".repeat(32)}` as Hex;
const deposit = {
  chainId: 31338,
  txHash: TX_HASH,
  position: 0,
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

  it("follows a deposit a reorg mined again in another block, to its log there, if it pays the same", async () => {
    const depository = "0x00000000000000000000000000000000000000d1";
    const paid = {
      depositor: "0x00000000000000000000000000000000000000a1" as Hex,
      currency: zeroAddress,
      amount: 5n,
    };
    const log = (amount: bigint, logIndex: number) => ({
      address: depository,
      topics: encodeEventTopics({
        abi: depositoryAbi,
        eventName: "Deposit",
        args: { orderId: `0x${"cc".repeat(32)}` as Hex, depositor: paid.depositor, currency: paid.currency },
      }),
      data: encodeAbiParameters([{ type: "uint256" }], [amount]),
      logIndex,
      blockHash: `0x${"dd".repeat(32)}`,
      blockNumber: 12n,
      transactionHash: TX_HASH,
      transactionIndex: 0,
      removed: false,
    });
    const client = (logs: unknown[]) =>
      ({
        chain: { id: 31338, depository },
        publicClient: {
          getBlockNumber: async () => 20n,
          getTransactionReceipt: async () => ({
            status: "success",
            logs,
            transactionHash: TX_HASH,
            blockNumber: 12n,
            blockHash: `0x${"DD".repeat(32)}`,
            from: paid.depositor,
            gasUsed: 1n,
            effectiveGasPrice: 1n,
          }),
          getBlock: async () => ({ timestamp: 1_700_000_012n }),
        },
      }) as unknown as EvmChainClient;
    const applied = { ...(deposit as object), ...paid } as never;
    expect(await checkEvmDeposit(client([log(1n, 3), log(5n, 7)]), applied, 1)).toEqual({
      state: "moved",
      to: { position: 7, blockNumber: 12n, blockHash: `0x${"dd".repeat(32)}`, timestamp: 1_700_000_012n },
    });
    // Mined again paying something else: not the deposit that was applied.
    expect(await checkEvmDeposit(client([log(1n, 3)]), applied, 1)).toMatchObject({
      state: "reorged",
      reorg: { reason: "deposit mined in another block" },
    });
  });
});
