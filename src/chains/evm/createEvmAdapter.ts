import { type Address, type Hex, encodeFunctionData, getAddress, zeroAddress } from "viem";
import { depositoryAbi } from "../../../contracts/abis.js";
import type { OrderData } from "../../domain/order.js";
import { requiredConfirmations } from "../../domain/requiredConfirmations.js";
import type { ChainAdapter, FillOrder, FillRefusal, PreparedTransaction } from "../adapter.js";
import type { EvmChainConfig } from "../chainConfig.js";
import { buildDepositSteps } from "./buildDepositSteps.js";
import { callExecutorAddress } from "./callExecutorAddress.js";
import { checkEvmDeposit } from "./checkEvmDeposit.js";
import { classifyFillRevert } from "./classifyFillRevert.js";
import { encodeFillCall } from "./encodeFillCall.js";
import { ensureReceiverAllowances } from "./ensureReceiverAllowances.js";
import { aggregatorRoundReader } from "./aggregatorRoundReader.js";
import { createEvmChainClient } from "./evmChainClient.js";
import { evmFamily } from "./evmFamily.js";
import type { EvmSolver } from "./evmSolver.js";
import type { OrderSigner } from "./orderSigner.js";
import { findRevert } from "./findRevert.js";
import { followFill } from "./followFill.js";
import { readReceipt, waitForReceipt } from "./waitForReceipt.js";
import { quotedGasUnits } from "./quotedGasUnits.js";
import { depositFactsOfReceipt } from "./depositFactsOfReceipt.js";
import { readReceiptFacts } from "./readReceiptFacts.js";
import { settlementFactsOfReceipt } from "./settlementFactsOfReceipt.js";
import {
  type PreparedSolverTransaction,
  type SolverCall,
  broadcastTransaction,
  prepareSolverTransaction,
  signSolverTransaction,
} from "./solverTransaction.js";
import { translateRpcError } from "./translateRpcError.js";
import { withDepositGas } from "./withDepositGas.js";

export type EvmAdapterOptions = {
  /** The worker's: the key; the gateway's: its address only (evmSolverAddress). */
  solver: EvmSolver;
  /** Where `orderSignature`s come from (the gateway's: the worker's signer service); none, no protocol data. */
  orderSigner?: OrderSigner;
  gasPriceTtlMs?: number;
};

/** One EVM chain behind the chain-adapter seam: viem, the Depository and Receiver contracts, the solver's account. */
export function createEvmAdapter(chain: EvmChainConfig, options: EvmAdapterOptions): ChainAdapter {
  const client = createEvmChainClient(chain, { gasPriceTtlMs: options.gasPriceTtlMs });
  const { solver, orderSigner } = options;
  // Every way out of the adapter: a node's failure leaves as the domain's retryable error.
  const rpc = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw translateRpcError(error, chain.id);
    }
  };
  const prepared = (transaction: PreparedTransaction) => {
    if (transaction.chainId !== chain.id)
      throw new Error(`a transaction for chain ${transaction.chainId} reached ${chain.id}`);
    return transaction.payload as PreparedSolverTransaction;
  };
  const asCall = (call: SolverCall) => ({
    from: solver.address,
    to: getAddress(call.to),
    data: call.data,
    value: call.value,
  });
  // Ours, and off limits to destination calls: the Receiver holds the solver's approval, the Depository its deposits.
  const serviceContracts = [chain.depository, chain.receiver, callExecutorAddress(chain.receiver)];
  const refusal = (order: FillOrder, call: SolverCall, data: Hex | undefined): FillRefusal => ({
    // The node answered with a revert: one that carried no data has none.
    failure: classifyFillRevert(
      { data: data ?? "0x", call },
      { recipient: order.recipient, currencySymbol: order.currencySymbol },
    ),
    call: asCall(call),
    revertData: data,
  });

  // The recipient, call targets and their gas are the user's: a fill (or refund) that would use well over the gas its
  // quote charged for is refused before it is signed, so gas burnt on receipt is never the solver's. Half again over
  // the quoted units: they are a price, not a measurement (a fill's intrinsic gas and calldata come on top of them).
  const gasAllowed = (quoted: bigint) => (quoted * 3n) / 2n;
  const overQuotedGas = (call: SolverCall, gas: bigint, quoted: bigint): FillRefusal => ({
    failure: {
      failReason: "QUOTED_GAS_LIMIT_EXCEEDED",
      details: {
        errorCode: "DESTINATION_TX_FAILED",
        message: `the fill needs ${gas} gas, more than the ${gasAllowed(quoted)} its quote allows (${quoted} charged, and half again)`,
      },
    },
    call: asCall(call),
    revertData: undefined,
  });

  return {
    ...evmFamily,
    chain,
    solverAddress: solver.address,

    recipientRefusal(address) {
      const key = evmFamily.address.key(address);
      if (key === zeroAddress)
        return { errorCode: "INVALID_ADDRESS", message: "recipient must not be the zero address" };
      const contracts = [...serviceContracts, ...chain.currencies.map((currency) => currency.address)];
      if (contracts.some((contract) => contract.toLowerCase() === key))
        return {
          errorCode: "INVALID_RECIPIENT",
          message: `recipient ${address} is a token or protocol contract and cannot receive the fill`,
        };
      return undefined;
    },

    callTargetRefusal(to) {
      const key = evmFamily.address.key(to);
      if (!serviceContracts.some((contract) => contract.toLowerCase() === key)) return undefined;
      return `${to} is the Receiver, the Depository or the call executor of chain ${chain.id}: destination calls may not call them`;
    },

    estimateFee: (operation, currency, callCount = 0, conversion) =>
      rpc(
        async () =>
          quotedGasUnits(operation, currency === zeroAddress, callCount, conversion) * (await client.gasPrice()),
      ),
    balanceOf: (owner, currency) => rpc(() => client.balanceOf(owner as Address, currency as Address)),
    readAggregatorRound: aggregatorRoundReader(client.publicClient),
    headHeight: () => rpc(() => client.publicClient.getBlockNumber({ cacheTime: 0 })),
    readDepositAccount: (user, currency) =>
      rpc(async () => {
        const [balance, allowance] = await Promise.all([
          client.balanceOf(user as Address, currency as Address),
          currency === zeroAddress
            ? Promise.resolve(0n)
            : client.allowance(user as Address, currency as Address, chain.depository as Address),
        ]);
        return { balance, allowance };
      }),
    minimumDeposit: () => 1n,
    minimumPayout: () => 1n,
    depositSteps: (input) => rpc(() => withDepositGas(client, buildDepositSteps(chain, input))),
    ...(orderSigner ? { signOrder: (order: OrderData) => orderSigner.signOrder(order) } : {}),
    simulateFill: (order) =>
      rpc(async () => {
        const blockNumber = await client.publicClient.getBlockNumber({ cacheTime: 0 });
        const call = encodeFillCall(chain.receiver, order);
        try {
          await client.publicClient.call({ account: solver.address, ...call, blockNumber });
          return { blockNumber, refusal: undefined };
        } catch (error) {
          const revert = findRevert(error);
          if (!revert) throw error;
          return { blockNumber, refusal: refusal(order, call, revert.data) };
        }
      }),

    readDepositFacts: (txHash) =>
      rpc(() =>
        readReceiptFacts(client, txHash as Hex, (receipt, timestamp) =>
          depositFactsOfReceipt(chain.id, chain.depository, receipt, timestamp),
        ),
      ),
    readSettlementFacts: (txHash) =>
      rpc(async () => {
        const facts = await readReceiptFacts(client, txHash as Hex, (receipt, timestamp) =>
          settlementFactsOfReceipt(chain, solver.address, receipt, timestamp),
        );
        return {
          fills: facts.flatMap((settled) => (settled.kind === "fill" ? [settled.fact] : [])),
          withdrawals: facts.flatMap((settled) => (settled.kind === "withdrawal" ? [settled.fact] : [])),
        };
      }),
    requiredConfirmations: (value) => requiredConfirmations(chain.confirmations, value),
    checkDeposit: (deposit, required) => rpc(() => checkEvmDeposit(client, deposit, required)),
    refundSpendsDeposit: false,

    prepareSolver: (ledger) => rpc(() => ensureReceiverAllowances(ledger, client, solver)),
    prepareFill: (order) =>
      rpc(async () => {
        const call = encodeFillCall(chain.receiver, order);
        try {
          const payload = await prepareSolverTransaction(client, solver, call);
          const quoted = quotedGasUnits(
            "fill",
            order.currency === zeroAddress,
            order.calls.length,
            order.conversion?.kind,
          );
          if (payload.gas > gasAllowed(quoted)) return { refusal: overQuotedGas(call, payload.gas, quoted) };
          return { transaction: { chainId: chain.id, payload } };
        } catch (error) {
          const revert = findRevert(error);
          if (!revert) throw error;
          return { refusal: refusal(order, call, revert.data) };
        }
      }),
    prepareRefund: (refund) =>
      rpc(async () => {
        const call = {
          to: chain.depository as Address,
          data: encodeFunctionData({
            abi: depositoryAbi,
            functionName: "withdraw",
            args: [refund.orderId as Hex, refund.currency as Address, refund.recipient as Address, refund.amount],
          }),
          value: 0n,
        };
        try {
          const payload = await prepareSolverTransaction(client, solver, call);
          const quoted = quotedGasUnits("refund", refund.currency === zeroAddress);
          if (payload.gas > gasAllowed(quoted))
            return {
              refusal: `the refund needs ${payload.gas} gas, more than the ${gasAllowed(quoted)} its fee allows (${quoted} charged, and half again): ${refund.recipient} uses more gas to receive it than a wallet does`,
            };
          return { transaction: { chainId: chain.id, payload } };
        } catch (error) {
          if (!findRevert(error)) throw error;
          return { refusal: (error as Error).message.split("\n")[0] };
        }
      }),
    signTransaction: (ledger, transaction) =>
      rpc(() => signSolverTransaction(ledger, client, solver, prepared(transaction))),
    broadcast: (signed) => rpc(() => broadcastTransaction(client, signed)),
    followFill: (attempt, { ledger, policy, now }) =>
      rpc(() => followFill(attempt, { ledger, chain: client, solver, policy, now })),
    waitForReceipt: (txHash, options) => waitForReceipt(client, txHash, options),
    readReceipt: (txHash) => rpc(() => readReceipt(client, txHash)),
  };
}
