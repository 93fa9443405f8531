import {
  type Hex,
  type LocalAccount,
  type TransactionSerializableEIP1559,
  TransactionReceiptNotFoundError,
  getAddress,
  keccak256,
  parseTransaction,
} from "viem";
import { receiverAbi } from "../../../contracts/abis.js";
import type { FillOutcome, StuckFillPolicy } from "../adapter.js";
import type { FillLedger, StoredFillAttempt } from "../fillLedger.js";
import { classifyFillRevert } from "./classifyFillRevert.js";
import type { EvmChainClient } from "./evmChainClient.js";
import { findRevert } from "./findRevert.js";
import { broadcastTransaction, walletFor } from "./solverTransaction.js";

const bump = (value: bigint) => (value * 125n) / 100n + 1n;
const max = (a: bigint, b: bigint) => (a > b ? a : b);

/**
 * Follows a sent fill until its nonce is spent: mined (by any of its re-priced versions), or replaced by
 * the cancellation after the bump window, in which case the fill can never pay and its deposit may be
 * refunded. Every new version is stored before it is broadcast; nothing here takes a new nonce.
 *
 * "cancelled" (the deposit is refunded) only on positive evidence: the transaction that spent the nonce is known and
 * is none of the fill's versions, and the Receiver does not have the request filled. A node that fails to answer, or
 * answers inconsistently (the nonce spent, no transaction found spending it), throws: the job asks again later.
 */
export async function followFill(
  attempt: StoredFillAttempt,
  deps: { ledger: FillLedger; chain: EvmChainClient; solver: LocalAccount; policy: StuckFillPolicy; now?: number },
): Promise<FillOutcome> {
  const { chain } = deps;
  const client = chain.publicClient;
  const { nonce } = attempt;
  if (nonce === null) throw new Error(`fill of ${attempt.requestId} has no nonce: it is no EVM transaction`);
  // Not found is an answer (not mined); any other error of the node is none, and is thrown.
  const receiptOf = (hash: string) =>
    client.getTransactionReceipt({ hash: hash as Hex }).catch((error: unknown) => {
      if (error instanceof TransactionReceiptNotFoundError) return undefined;
      throw error;
    });
  const versions = [attempt.txHash, ...[...attempt.previousTxHashes].reverse()];
  for (const hash of versions) {
    const receipt = await receiptOf(hash);
    if (!receipt) continue;
    const fee = receipt.gasUsed * receipt.effectiveGasPrice;
    if (receipt.status === "success") return { state: "mined", txHash: hash, blockNumber: receipt.blockNumber, fee };
    // Re-priced versions differ only in fees: the stored one carries the call that reverted.
    const sent = parseTransaction(attempt.rawTx as Hex);
    const block = await client.getBlock({ blockNumber: receipt.blockNumber });
    const call = { data: sent.data ?? "0x", value: sent.value ?? 0n };
    return {
      state: "reverted",
      txHash: hash,
      failure: classifyFillRevert(
        {
          data: await replayedRevert(
            client,
            { from: attempt.solver as Hex, to: sent.to!, gas: sent.gas!, ...call },
            receipt.blockNumber,
          ),
          call,
          gas: { used: receipt.gasUsed, limit: sent.gas! },
        },
        { recipient: attempt.recipient, currencySymbol: attempt.currency },
      ),
      failedTransaction: {
        txHash: hash,
        blockNumber: receipt.blockNumber,
        timestamp: block.timestamp,
        fee,
        call: {
          from: getAddress(attempt.solver),
          to: getAddress(sent.to!),
          data: sent.data ?? "0x",
          value: (sent.value ?? 0n).toString(),
        },
      },
    };
  }
  const neverAccepted = attempt.broadcastFailures >= deps.policy.maxBroadcastFailures;
  const cancelled = attempt.cancelTxHash && (await receiptOf(attempt.cancelTxHash)) ? attempt.cancelTxHash : undefined;
  const mined = await client.getTransactionCount({ address: deps.solver.address, blockTag: "latest" });
  if (cancelled || mined > nonce) {
    // Our cancellation, or a transaction sent with the solver key outside Crossfill: found in its block, not assumed.
    const spentBy = cancelled ?? (await nonceSpender(chain, deps.solver.address, nonce));
    if (!spentBy || versions.includes(spentBy))
      throw new Error(
        `the nonce ${nonce} of the fill of ${attempt.requestId} is spent, but the node shows ${spentBy ? `no receipt of the fill ${spentBy}` : "no transaction spending it"}: asking again`,
      );
    const filled = await client.readContract({
      address: getAddress(chain.chain.receiver),
      abi: receiverAbi,
      functionName: "filled",
      args: [attempt.requestId as Hex],
    });
    if (filled)
      throw new Error(`the Receiver has ${attempt.requestId} filled, yet no version of its fill shows a receipt`);
    return { state: "cancelled", nonceSpentBy: spentBy, neverAccepted };
  }

  let refused = neverAccepted;
  const age = (deps.now ?? Date.now()) - attempt.sentAt.getTime();
  if (age < deps.policy.bumpAfterMs && attempt.cancelRawTx) {
    await broadcastTransaction(chain, { rawTx: attempt.cancelRawTx, txHash: attempt.cancelTxHash! });
    return { state: "in-flight", txHash: attempt.cancelTxHash!, action: "cancelling" };
  }
  if (age < deps.policy.bumpAfterMs && !refused) {
    try {
      await broadcastTransaction(chain, attempt);
      return { state: "in-flight", txHash: attempt.txHash, action: "re-sent" };
    } catch (error) {
      // Refused outright (not merely unmined): after a few refusals its nonce is spent on a cancellation.
      const failures = await deps.ledger.recordBroadcastFailure(
        attempt.requestId,
        (error as Error).message.split("\n")[0],
      );
      if (failures < deps.policy.maxBroadcastFailures) throw error;
      refused = true;
    }
  }

  const wallet = walletFor(chain, deps.solver);
  // Without its signature: a signature left on the object would be serialised instead of the new one.
  const {
    r: _r,
    s: _s,
    v: _v,
    yParity: _yParity,
    ...last
  } = parseTransaction((attempt.cancelRawTx ?? attempt.rawTx) as Hex) as TransactionSerializableEIP1559 & {
    r?: Hex;
    s?: Hex;
    v?: bigint;
    yParity?: number;
  };
  const market = await client.estimateFeesPerGas();
  // The next block's base fee, which may already have moved past the last one's.
  const nextBaseFee = (await client.getBlock({ blockTag: "pending" }).catch(() => undefined))?.baseFeePerGas ?? 0n;
  const maxPriorityFeePerGas = max(bump(last.maxPriorityFeePerGas ?? 0n), market.maxPriorityFeePerGas);
  const floor = max(market.maxFeePerGas, 2n * nextBaseFee + maxPriorityFeePerGas);
  const fees = { maxPriorityFeePerGas, maxFeePerGas: max(bump(last.maxFeePerGas ?? 0n), floor) };

  if (!attempt.cancelTxHash && !refused && attempt.bumps < deps.policy.maxBumps) {
    const rawTx = await wallet.signTransaction({ ...last, ...fees });
    const next = { rawTx, txHash: keccak256(rawTx) };
    if (await deps.ledger.recordReplacement(attempt.requestId, attempt.txHash, next))
      await broadcastTransaction(chain, next);
    return { state: "in-flight", txHash: next.txHash, action: "bumped" };
  }
  const rawTx = await wallet.signTransaction({
    type: "eip1559",
    chainId: chain.chain.id,
    nonce,
    to: deps.solver.address,
    value: 0n,
    data: "0x",
    gas: 21_000n,
    ...fees,
  });
  const cancel = { rawTx, txHash: keccak256(rawTx) };
  // A cancellation still not mined is itself re-priced, on the same nonce.
  if (!(await deps.ledger.recordCancel(attempt.requestId, cancel, attempt.cancelTxHash))) {
    return { state: "in-flight", txHash: attempt.cancelTxHash ?? attempt.txHash, action: "cancelling" };
  }
  await broadcastTransaction(chain, cancel);
  return { state: "in-flight", txHash: cancel.txHash, action: "cancelling" };
}

/**
 * A mined revert leaves no revert data in its receipt: the fill is run again on the state its block left (which the
 * revert did not change), and reverts there as it did, with its data. Undefined when it no longer reverts or its
 * replay fails otherwise.
 */
async function replayedRevert(
  client: EvmChainClient["publicClient"],
  tx: { from: Hex; to: Hex; data: Hex; value: bigint; gas: bigint },
  blockNumber: bigint,
): Promise<Hex | undefined> {
  try {
    await client.call({ account: tx.from, to: tx.to, data: tx.data, value: tx.value, gas: tx.gas, blockNumber });
    return undefined;
  } catch (error) {
    // Not a revert (a replay out of gas is a node's internal error, or the node failed): the fill's failure is
    // already known from its receipt, only its reason is less precise.
    const revert = findRevert(error);
    return revert && (revert.data ?? "0x");
  }
}

/**
 * The hash of the transaction of `account` with `nonce`, found in the first block after which the account's nonce is
 * past it (searched back from the head, doubling, then halving); undefined when that block holds none (a node
 * answering from another view of the chain).
 */
async function nonceSpender(chain: EvmChainClient, account: Hex, nonce: number): Promise<string | undefined> {
  const client = chain.publicClient;
  const countAt = (blockNumber: bigint) => client.getTransactionCount({ address: account, blockNumber });
  let spent = await client.getBlockNumber({ cacheTime: 0 });
  if ((await countAt(spent)) <= nonce) return undefined;
  // After `unspent` the nonce is not yet used, after `spent` it is.
  let unspent = -1n;
  for (let step = 1n; spent > 0n; step *= 2n) {
    const probe = spent - step < 0n ? 0n : spent - step;
    if ((await countAt(probe)) <= nonce) {
      unspent = probe;
      break;
    }
    spent = probe;
  }
  while (spent - unspent > 1n) {
    const middle = (spent + unspent) / 2n;
    if ((await countAt(middle)) > nonce) spent = middle;
    else unspent = middle;
  }
  const block = await client.getBlock({ blockNumber: spent, includeTransactions: true });
  const sender = account.toLowerCase();
  return block.transactions.find((tx) => tx.from.toLowerCase() === sender && tx.nonce === nonce)?.hash;
}
