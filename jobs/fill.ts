import type pg from "pg";
import type { Logger } from "pino";
import { type Address, type Hex, type LocalAccount, createWalletClient, encodeFunctionData, erc20Abi, http, keccak256, maxUint256, zeroAddress } from "viem";
import { receiverAbi } from "../contracts/abis.js";
import { listRequestDeposits } from "../schema/chainFacts.js";
import { type FillAttempt, getFillAttempt, insertFillAttempt } from "../schema/fillAttempts.js";
import { type StoredRequest, getRequest } from "../schema/requests.js";
import { lockNextNonce, saveNextNonce } from "../schema/solverNonces.js";
import { transitionRequest } from "../schema/transitionRequest.js";
import { withTransaction } from "../schema/withTransaction.js";
import type { EvmChainClient } from "../src/chains/evmChainClient.js";
import { toViemChain } from "../src/chains/evmChainClient.js";
import { assessDeposit } from "../src/domain/assessDeposit.js";

export type FillDeps = {
  pool: pg.Pool;
  client: (chainId: number) => EvmChainClient;
  solver: LocalAccount;
  logger: Logger;
};

type PreparedCall = { to: Address; data: Hex; value: bigint };

/** Sends a signed transaction; one the node already has (a re-send after a crash) counts as sent. */
async function broadcast(chain: EvmChainClient, rawTx: Hex, txHash: Hex): Promise<void> {
  try {
    await chain.publicClient.sendRawTransaction({ serializedTransaction: rawTx });
  } catch (error) {
    const known = await chain.publicClient.getTransaction({ hash: txHash }).catch(() => undefined);
    if (!known) throw error;
  }
}

function fillCall(request: StoredRequest, amountOut: bigint, receiver: Address): PreparedCall {
  const currency = request.destinationCurrency as Address;
  const calls = request.calls.map((call) => ({ to: call.to as Address, value: BigInt(call.value), data: call.data as Hex }));
  return {
    to: receiver,
    data: encodeFunctionData({
      abi: receiverAbi,
      functionName: "fill",
      args: [request.id as Hex, currency, amountOut, request.recipient as Address, calls],
    }),
    value: currency === zeroAddress ? amountOut : 0n,
  };
}

/**
 * The solver's fill of one request from its own inventory. The signed transaction is stored before it is
 * broadcast (under the chain's nonce lock), so a retry or a crashed worker re-sends that same transaction
 * and a request is never paid twice; the Receiver also refuses a second fill of one request id on-chain.
 */
export function createFillProcessor(deps: FillDeps) {
  const { pool, logger, solver } = deps;

  async function signFill(request: StoredRequest, amountOut: bigint): Promise<FillAttempt | undefined> {
    const chain = deps.client(request.destinationChainId);
    const wallet = createWalletClient({ account: solver, chain: toViemChain(chain.chain), transport: http(chain.chain.rpcUrl) });
    const call = fillCall(request, amountOut, chain.chain.receiver as Address);
    const currency = request.destinationCurrency as Address;
    return withTransaction(pool, async (db) => {
      // Serialises signing per request across replicas; the row lock below serialises nonces per chain.
      await db.query("SELECT pg_advisory_xact_lock(hashtext($1))", [request.id]);
      if (await getFillAttempt(db, request.id)) return undefined;
      const pending = await chain.publicClient.getTransactionCount({ address: solver.address, blockTag: "pending" });
      let nonce = await lockNextNonce(db, chain.chain.id, solver.address, pending);
      if (currency !== zeroAddress) {
        const allowance = await chain.allowance(solver.address, currency, chain.chain.receiver as Address);
        if (allowance < amountOut) {
          const approve = await wallet.prepareTransactionRequest({
            to: currency,
            data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [chain.chain.receiver as Address, maxUint256] }),
            nonce,
          });
          const raw = await wallet.signTransaction(approve);
          await broadcast(chain, raw, keccak256(raw));
          nonce += 1;
        }
      }
      // With an approval still in the mempool the fill cannot be simulated yet; its gas is estimated generously.
      const prepared = await wallet.prepareTransactionRequest({ ...call, nonce, ...(nonce > pending ? { gas: 1_000_000n } : {}) });
      const rawTx = await wallet.signTransaction(prepared);
      const attempt: FillAttempt = {
        requestId: request.id,
        chainId: chain.chain.id,
        solver: solver.address,
        nonce,
        txHash: keccak256(rawTx),
        rawTx,
        currency,
        amount: amountOut,
        recipient: request.recipient,
      };
      await insertFillAttempt(db, attempt);
      await saveNextNonce(db, chain.chain.id, solver.address, nonce + 1);
      return attempt;
    });
  }

  return async function processFill(job: { data: { requestId: string } }): Promise<string> {
    const { requestId } = job.data;
    const request = await getRequest(pool, requestId);
    if (!request || (request.status !== "pending" && request.status !== "submitted")) return `skipped: ${request?.status ?? "unknown"}`;

    let attempt = await getFillAttempt(pool, requestId);
    if (!attempt) {
      const [first] = await listRequestDeposits(pool, requestId);
      if (!first) return "skipped: no deposit";
      const assessment = assessDeposit(request, first);
      if (!assessment.fill) return `skipped: ${assessment.failReason}`;
      attempt = (await signFill(request, assessment.amountOut)) ?? (await getFillAttempt(pool, requestId));
      if (!attempt) throw new Error(`fill of ${requestId} was neither signed nor found`);
    }
    const chain = deps.client(attempt.chainId);
    await broadcast(chain, attempt.rawTx as Hex, attempt.txHash as Hex);
    await withTransaction(pool, (db) =>
      transitionRequest(db, { requestId, from: ["pending"], to: "submitted", details: { fillTxHash: attempt.txHash, nonce: attempt.nonce } }),
    );
    logger.info({ requestId, txHash: attempt.txHash, nonce: attempt.nonce }, "fill sent");
    return attempt.txHash;
  };
}
