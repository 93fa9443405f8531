import { type Abi, type Hex, type Log, encodeAbiParameters, encodeEventTopics, getAddress } from "viem";
import { describe, expect, it } from "vitest";
import { depositoryAbi, receiverAbi } from "../../../contracts/abis.js";
import { settlementFactsOfReceipt } from "./settlementFactsOfReceipt.js";

const chain = {
  id: 31339,
  receiver: getAddress("0x00000000000000000000000000000000000000a1"),
  depository: getAddress("0x00000000000000000000000000000000000000d1"),
};
const solver = getAddress("0x00000000000000000000000000000000000000b1");
const stranger = getAddress("0x00000000000000000000000000000000000000e2");
const recipient = getAddress("0xabcdefabcdefabcdefabcdefabcdefabcdefabcd");
const currency = getAddress("0x1111111111111111111111111111111111111111");
const requestId = `0x${"AB".repeat(32)}` as Hex;
const txHash = `0x${"CD".repeat(32)}` as Hex;
const blockHash = `0x${"EF".repeat(32)}` as Hex;

/** A log of `eventName` from `address`, its indexed arguments in topics and the rest ABI-encoded in data. */
function eventLog(abi: Abi, eventName: string, address: Hex, logIndex: number, args: Record<string, unknown>) {
  const event = abi.find((item) => item.type === "event" && item.name === eventName) as unknown as {
    inputs: { name: string; type: string; indexed?: boolean }[];
  };
  const plain = event.inputs.filter((input) => !input.indexed);
  return {
    address,
    topics: encodeEventTopics({ abi, eventName, args } as never) as [Hex, ...Hex[]],
    data: encodeAbiParameters(
      plain,
      plain.map((input) => args[input.name]),
    ),
    logIndex,
    blockHash,
    blockNumber: 9n,
    transactionHash: txHash,
    transactionIndex: 0,
    removed: false,
  } as Log<bigint, number, false>;
}
const fillLog = (address: Hex, logIndex: number, by: Hex) =>
  eventLog(receiverAbi as Abi, "Fill", address, logIndex, { requestId, solver: by, currency, recipient, amount: 5n });
const withdrawalLog = (address: Hex, logIndex: number) =>
  eventLog(depositoryAbi as Abi, "Withdrawal", address, logIndex, {
    orderId: requestId,
    currency,
    to: recipient,
    amount: 7n,
  });
const receipt = (logs: Log<bigint, number, false>[]) => ({
  logs,
  transactionHash: txHash,
  blockNumber: 9n,
  blockHash,
  gasUsed: 60_000n,
  effectiveGasPrice: 2n,
});

describe("settlementFactsOfReceipt", () => {
  it("reads our solver's fill through the Receiver and the Depository's withdrawal, as Ponder records them", () => {
    const facts = settlementFactsOfReceipt(
      chain,
      solver,
      receipt([fillLog(chain.receiver, 3, solver), withdrawalLog(chain.depository, 4)]),
      1234n,
    );
    expect(facts).toEqual([
      {
        kind: "fill",
        fact: {
          chainId: 31339,
          txHash: txHash.toLowerCase(),
          position: 3,
          blockNumber: 9n,
          blockHash: blockHash.toLowerCase(),
          timestamp: 1234n,
          requestId: requestId.toLowerCase(),
          currency: currency.toLowerCase(),
          recipient: recipient.toLowerCase(),
          amount: 5n,
          txFee: 120_000n,
        },
      },
      {
        kind: "withdrawal",
        fact: {
          chainId: 31339,
          txHash: txHash.toLowerCase(),
          position: 4,
          blockNumber: 9n,
          blockHash: blockHash.toLowerCase(),
          timestamp: 1234n,
          orderId: requestId.toLowerCase(),
          currency: currency.toLowerCase(),
          recipient: recipient.toLowerCase(),
          amount: 7n,
        },
      },
    ]);
  });

  it("finds nothing in another solver's fill, a Fill or Withdrawal logged by another contract, or no logs", () => {
    const foreign = receipt([
      fillLog(chain.receiver, 0, stranger),
      fillLog(stranger, 1, solver),
      withdrawalLog(stranger, 2),
    ]);
    expect(settlementFactsOfReceipt(chain, solver, foreign, 1n)).toEqual([]);
    expect(settlementFactsOfReceipt(chain, solver, receipt([]), 1n)).toEqual([]);
  });
});
