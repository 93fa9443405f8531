import { type Hex, type TransactionReceipt, TransactionReceiptNotFoundError, parseEventLogs } from "viem";
import { receiverAbi } from "../../../contracts/abis.js";
import type { MinedReceipt } from "../adapter.js";
import type { EvmChainClient } from "./evmChainClient.js";

/**
 * Asks the node for a transaction's receipt every `pollMs` (a twentieth of a block, 25 ms at least) until it is
 * mined, the time is up or `signal` aborts; undefined when not mined by then. Errors of the node count as not yet.
 * A succeeded receipt comes with its block's time and the Receiver's Fill events, as the indexer would record them.
 */
export async function waitForReceipt(
  client: Pick<EvmChainClient, "chain" | "publicClient">,
  txHash: string,
  options: { timeoutMs: number; signal?: AbortSignal; pollMs?: number },
): Promise<MinedReceipt | undefined> {
  const pollMs = options.pollMs ?? Math.max(25, (client.chain.blockTimeSeconds * 1000) / 20);
  const deadline = Date.now() + options.timeoutMs;
  while (!options.signal?.aborted) {
    const receipt = await client.publicClient.getTransactionReceipt({ hash: txHash as Hex }).catch(() => undefined);
    if (receipt) {
      if (receipt.status !== "success") return { succeeded: false, blockNumber: receipt.blockNumber };
      const described = await describeFill(client, receipt).catch(() => undefined);
      if (described) return described;
    }
    if (Date.now() + pollMs > deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  return undefined;
}

/**
 * A transaction's receipt now: null when the node does not have it (not mined, or mined in a block a reorg dropped);
 * a failure of the node is thrown, never taken for a missing receipt.
 */
export async function readReceipt(
  client: Pick<EvmChainClient, "chain" | "publicClient">,
  txHash: string,
): Promise<MinedReceipt | null> {
  const receipt = await client.publicClient.getTransactionReceipt({ hash: txHash as Hex }).catch((error: unknown) => {
    if (error instanceof TransactionReceiptNotFoundError) return null;
    throw error;
  });
  if (!receipt) return null;
  if (receipt.status !== "success") return { succeeded: false, blockNumber: receipt.blockNumber };
  return describeFill(client, receipt);
}

async function describeFill(
  client: Pick<EvmChainClient, "chain" | "publicClient">,
  receipt: TransactionReceipt,
): Promise<MinedReceipt> {
  const receiver = client.chain.receiver.toLowerCase();
  const block = await client.publicClient.getBlock({ blockHash: receipt.blockHash });
  return {
    succeeded: true,
    blockNumber: receipt.blockNumber,
    blockHash: receipt.blockHash.toLowerCase(),
    timestamp: block.timestamp,
    // The same product the indexer records, so the two sources agree on one fill.
    fee: receipt.gasUsed * receipt.effectiveGasPrice,
    fills: parseEventLogs({ abi: receiverAbi, eventName: "Fill", logs: receipt.logs })
      .filter((log) => log.address.toLowerCase() === receiver)
      .map((log) => ({
        position: log.logIndex,
        requestId: log.args.requestId.toLowerCase(),
        currency: log.args.currency.toLowerCase(),
        recipient: log.args.recipient.toLowerCase(),
        amount: log.args.amount,
      })),
  };
}
