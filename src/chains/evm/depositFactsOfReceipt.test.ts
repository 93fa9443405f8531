import { type Hex, type Log, encodeAbiParameters, encodeEventTopics, getAddress } from "viem";
import { describe, expect, it } from "vitest";
import { depositoryAbi } from "../../../contracts/abis.js";
import { depositFactsOfReceipt } from "./depositFactsOfReceipt.js";

const depository = getAddress("0x00000000000000000000000000000000000000d1");
const other = getAddress("0x00000000000000000000000000000000000000e2");
const depositor = getAddress("0xabcdefabcdefabcdefabcdefabcdefabcdefabcd");
const currency = getAddress("0x1111111111111111111111111111111111111111");
const orderId = `0x${"ab".repeat(32)}` as Hex;
const txHash = `0x${"CD".repeat(32)}` as Hex;
const blockHash = `0x${"EF".repeat(32)}` as Hex;

function depositLog(address: Hex, logIndex: number, amount: bigint): Log<bigint, number, false> {
  return {
    address,
    topics: encodeEventTopics({ abi: depositoryAbi, eventName: "Deposit", args: { orderId, depositor, currency } }) as [
      Hex,
      ...Hex[],
    ],
    data: encodeAbiParameters([{ type: "uint256" }], [amount]),
    logIndex,
    blockHash,
    blockNumber: 7n,
    transactionHash: txHash,
    transactionIndex: 0,
    removed: false,
  };
}

const receipt = (logs: Log<bigint, number, false>[]) => ({
  logs,
  transactionHash: txHash,
  blockNumber: 7n,
  blockHash,
  from: depositor,
  gasUsed: 50_000n,
  effectiveGasPrice: 3n,
});

describe("depositFactsOfReceipt", () => {
  it("reads each Deposit of the depository in the encodings Ponder records", () => {
    const facts = depositFactsOfReceipt(31337, depository, receipt([depositLog(depository, 2, 10n ** 18n)]), 1_700n);
    expect(facts).toEqual([
      {
        chainId: 31337,
        txHash: txHash.toLowerCase(),
        position: 2,
        orderId,
        depositor: depositor.toLowerCase(),
        currency: currency.toLowerCase(),
        amount: 10n ** 18n,
        blockNumber: 7n,
        blockHash: blockHash.toLowerCase(),
        timestamp: 1_700n,
        txFrom: depositor.toLowerCase(),
        txFee: 150_000n,
      },
    ]);
  });

  it("leaves out the same event emitted by another contract", () => {
    const logs = [depositLog(other, 0, 5n), depositLog(depository, 1, 6n)];
    expect(depositFactsOfReceipt(1, depository.toLowerCase(), receipt(logs), 0n).map((fact) => fact.amount)).toEqual([
      6n,
    ]);
  });

  it("reads nothing from a transaction that made no deposit", () => {
    expect(depositFactsOfReceipt(1, depository, receipt([]), 0n)).toEqual([]);
  });
});
