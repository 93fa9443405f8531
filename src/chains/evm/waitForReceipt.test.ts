import { TransactionReceiptNotFoundError, encodeAbiParameters, encodeEventTopics } from "viem";
import { describe, expect, it } from "vitest";
import { receiverAbi } from "../../../contracts/abis.js";
import type { EvmChainClient } from "./evmChainClient.js";
import { readReceipt, waitForReceipt } from "./waitForReceipt.js";

const RECEIVER = "0x00000000000000000000000000000000000000E0";
const REQUEST_ID = `0x${"ab".repeat(32)}` as const;
const RECIPIENT = "0x00000000000000000000000000000000000000cc";

/** A Receiver Fill log of `amount` 990 at `address` (the Receiver's own, or another contract emitting the same event). */
function fillLog(address: string, logIndex: number) {
  return {
    address,
    logIndex,
    data: encodeAbiParameters([{ type: "address" }, { type: "uint256" }], [RECIPIENT, 990n]),
    topics: encodeEventTopics({
      abi: receiverAbi,
      eventName: "Fill",
      args: { requestId: REQUEST_ID, solver: RECIPIENT, currency: "0x0000000000000000000000000000000000000000" },
    }),
  };
}

function fakeClient(answers: Array<"missing" | "error" | "success" | "reverted">) {
  let calls = 0;
  const client = {
    chain: { blockTimeSeconds: 1, receiver: RECEIVER },
    publicClient: {
      getBlock: async () => ({ timestamp: 1_700_000_000n }),
      getTransactionReceipt: async () => {
        const answer = answers[Math.min(calls++, answers.length - 1)];
        if (answer === "error") throw new Error("socket hang up");
        if (answer === "missing") throw new Error("TransactionReceiptNotFoundError");
        return {
          status: answer,
          blockNumber: 42n,
          blockHash: "0xBB",
          gasUsed: 21_000n,
          effectiveGasPrice: 2n,
          logs: [fillLog(RECEIVER, 3), fillLog("0x00000000000000000000000000000000000000ff", 4)],
        };
      },
    },
  } as unknown as Pick<EvmChainClient, "chain" | "publicClient">;
  return { client, calls: () => calls };
}

describe("waitForReceipt and readReceipt", () => {
  it("polls until the receipt is there, through node errors, and tells success from revert", async () => {
    const mined = fakeClient(["missing", "error", "success"]);
    expect(await waitForReceipt(mined.client, "0x01", { timeoutMs: 5_000, pollMs: 1 })).toEqual({
      succeeded: true,
      blockNumber: 42n,
      blockHash: "0xbb",
      timestamp: 1_700_000_000n,
      fee: 42_000n,
      // only the Receiver's own Fill events, in lower case
      fills: [
        {
          position: 3,
          requestId: REQUEST_ID,
          currency: "0x0000000000000000000000000000000000000000",
          recipient: RECIPIENT.toLowerCase(),
          amount: 990n,
        },
      ],
    });
    expect(mined.calls()).toBe(3);
    const reverted = fakeClient(["reverted"]);
    expect(await waitForReceipt(reverted.client, "0x01", { timeoutMs: 5_000, pollMs: 1 })).toEqual({
      succeeded: false,
      blockNumber: 42n,
    });
  });

  it("gives up at the timeout or when aborted", async () => {
    const never = fakeClient(["missing"]);
    expect(await waitForReceipt(never.client, "0x01", { timeoutMs: 30, pollMs: 5 })).toBeUndefined();
    expect(never.calls()).toBeGreaterThan(1);
    const controller = new AbortController();
    const waiting = waitForReceipt(fakeClient(["missing"]).client, "0x01", {
      timeoutMs: 60_000,
      pollMs: 5,
      signal: controller.signal,
    });
    controller.abort();
    expect(await waiting).toBeUndefined();
  });

  it("reads a receipt now: null when the node does not have it, a node failure thrown, never taken for one missing", async () => {
    const answers = (error: Error) =>
      ({
        chain: { blockTimeSeconds: 1, receiver: RECEIVER },
        publicClient: {
          getTransactionReceipt: async () => {
            throw error;
          },
        },
      }) as unknown as Pick<EvmChainClient, "chain" | "publicClient">;
    expect(await readReceipt(answers(new TransactionReceiptNotFoundError({ hash: "0x01" })), "0x01")).toBeNull();
    await expect(readReceipt(answers(new Error("socket hang up")), "0x01")).rejects.toThrow("socket hang up");
    expect(await readReceipt(fakeClient(["reverted"]).client, "0x01")).toEqual({ succeeded: false, blockNumber: 42n });
    expect((await readReceipt(fakeClient(["success"]).client, "0x01"))?.fills).toHaveLength(1);
  });
});
