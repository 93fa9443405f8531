import type pg from "pg";
import type { Logger } from "pino";
import { type Address, type Hex, type LocalAccount, encodeFunctionData, zeroAddress } from "viem";
import { depositoryAbi } from "../contracts/abis.js";
import { getRefund, markRefundSent, markRefundStuck } from "../schema/refunds.js";
import { getRequest } from "../schema/requests.js";
import { setRefundFailReason } from "../schema/setRefundFailReason.js";
import { withTransaction } from "../schema/withTransaction.js";
import type { ChainRegistry } from "../src/chains/chainRegistry.js";
import type { EvmChainClient } from "../src/chains/evmChainClient.js";
import { GAS_ESTIMATES } from "../src/chains/gasEstimates.js";
import { refundAmount } from "../src/domain/refundAmount.js";
import { convertAmount } from "../src/pricing/convertAmount.js";
import type { PriceSource } from "../src/pricing/priceSource.js";
import { findRevert } from "../src/chains/findRevert.js";
import { broadcastTransaction, prepareSolverTransaction, signSolverTransaction } from "./solverTransaction.js";

export type RefundDeps = {
  pool: pg.Pool;
  client: (chainId: number) => EvmChainClient;
  registry: ChainRegistry;
  prices: PriceSource;
  solver: LocalAccount;
  logger: Logger;
};

/**
 * Pays a deposit back from the Depository, less the refund's own gas. The signed withdrawal is stored
 * before it is broadcast; a retry re-sends it. A refund too small for its gas, or one the chain refuses,
 * is marked for an operator (`crossfill refunds`) with the spec's refundFailReason.
 */
export function createRefundProcessor(deps: RefundDeps) {
  const { pool, logger } = deps;

  /** The gas the refund spends, in the refunded currency. */
  async function gasCostIn(chain: EvmChainClient, currency: string): Promise<bigint | undefined> {
    const native = currency === zeroAddress;
    const gasCost = (native ? GAS_ESTIMATES.withdrawNative : GAS_ESTIMATES.withdrawErc20) * (await chain.gasPrice());
    if (native) return gasCost;
    const nativeCurrency = deps.registry.currency(chain.chain.id, zeroAddress)!;
    const token = deps.registry.currency(chain.chain.id, currency);
    const [nativePrice, tokenPrice] = await Promise.all([
      deps.prices.usdPriceE18(nativeCurrency),
      token && deps.prices.usdPriceE18(token),
    ]);
    if (!token || !nativePrice || !tokenPrice) return undefined;
    return convertAmount(
      gasCost,
      { decimals: nativeCurrency.decimals, usdPriceE18: nativePrice },
      { decimals: token.decimals, usdPriceE18: tokenPrice },
      true,
    );
  }

  return async function processRefund(job: { data: { refundId: string } }): Promise<string> {
    const refund = await getRefund(pool, job.data.refundId);
    if (!refund) return "skipped: unknown";
    const chain = deps.client(refund.chainId);
    if (refund.status === "sent") {
      await broadcastTransaction(chain, { rawTx: refund.rawTx!, txHash: refund.txHash! });
      return refund.txHash!;
    }
    if (refund.status !== "queued") return `skipped: ${refund.status}`;
    const request = await getRequest(pool, refund.requestId);
    if (!request) return "skipped: no request";

    const stuck = async (status: "unrefundable" | "manual", reason: string, note: string) => {
      await withTransaction(pool, async (db) => {
        await markRefundStuck(db, refund.id, status, reason, note);
        if (refund.refundsRequest) await setRefundFailReason(db, refund.requestId, reason);
      });
      logger.warn({ refundId: refund.id, requestId: refund.requestId, reason, note }, "refund needs an operator");
      return `stuck: ${reason}`;
    };

    const gasCost = await gasCostIn(chain, refund.currency);
    if (gasCost === undefined)
      return stuck("manual", "MANUAL_REFUND_REQUIRED", `no price to charge the refund's gas in ${refund.currency}`);
    const payable = refundAmount(refund.deposited, gasCost);
    if ("refundFailReason" in payable) {
      return stuck(
        "unrefundable",
        payable.refundFailReason,
        `deposit ${refund.deposited} against the refund's gas ${gasCost}`,
      );
    }
    const { amount } = payable;
    const call = {
      to: chain.chain.depository as Address,
      data: encodeFunctionData({
        abi: depositoryAbi,
        functionName: "withdraw",
        args: [request.orderId as Hex, refund.currency as Address, refund.recipient as Address, amount],
      }),
      value: 0n,
    };
    let signed: { nonce: number; rawTx: Hex; txHash: Hex } | undefined;
    try {
      const prepared = await prepareSolverTransaction(chain, deps.solver, call);
      signed = await withTransaction(pool, async (db) => {
        const current = await getRefund(db, refund.id, { forUpdate: true });
        if (current?.status !== "queued") return undefined;
        const transaction = await signSolverTransaction(db, chain, deps.solver, prepared);
        await markRefundSent(db, refund.id, { amount, gasCost, ...transaction });
        return transaction;
      });
    } catch (error) {
      if (!findRevert(error)) throw error;
      return stuck(
        "manual",
        "MANUAL_REFUND_REQUIRED",
        `the refund withdrawal reverts: ${(error as Error).message.split("\n")[0]}`,
      );
    }
    // Another run signed it meanwhile: send what it stored.
    if (!signed) return processRefund(job);
    await broadcastTransaction(chain, signed);
    logger.info(
      { refundId: refund.id, requestId: refund.requestId, txHash: signed.txHash, amount: amount.toString() },
      "refund sent",
    );
    return signed.txHash;
  };
}
