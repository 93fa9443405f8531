import { address, script as bscript } from "bitcoinjs-lib";
import { type DepositFact, type FillFact, NO_ORDER, type WithdrawalFact } from "../chainFacts.js";
import { computeRequestId } from "../../domain/order.js";
import { BITCOIN_NATIVE_CURRENCY, BITCOIN_NETWORKS, type BitcoinNetworkName, bitcoinFamily } from "./bitcoinFamily.js";
import type { EsploraTx } from "./createEsploraClient.js";
import { parseDepositMemo } from "./parseDepositMemo.js";

/** A fact as one transaction shows it, before the block (or the mempool) it sits in is known. */
type InTx<Fact> = Omit<Fact, "chainId" | "blockNumber" | "blockHash" | "timestamp">;

/** The deposit addresses among a transaction's addresses, each with the order a payment to it pays. */
export type KnownDepositAddresses = ReadonlyMap<string, { orderId: string }>;
const NONE: KnownDepositAddresses = new Map();

/** Every address a transaction spends from or pays: what to look deposit addresses up among. */
export function txAddresses(tx: EsploraTx): string[] {
  return [
    ...tx.vin.flatMap((input) => input.prevout?.scriptpubkey_address ?? []),
    ...tx.vout.flatMap((output) => output.scriptpubkey_address ?? []),
  ];
}

/**
 * How an Esplora transaction reads as Crossfill's facts on one chain, shared by the poller and the adapter's manual
 * index so both record a payment alike. Every output paying the depository is a deposit (`logIndex` its vout) of the
 * order its OP_RETURN names (`parseDepositMemo`), or of none (`NO_ORDER`); the depositor is the memo's, else the
 * first input's address. A transaction spending the depository is no deposit (its change is not paid in); one whose
 * OP_RETURN names an order is that order's refund (only the depository's key can spend it): each output to another
 * address is a withdrawal. With the chain's `solver` wallet: a transaction spending it whose OP_RETURN names an order
 * is that order's fill (EVM → BTC), each output to another address than the solver's and the depository a payment
 * to the recipient (the request id is derived from the order id, as quotes derive it).
 * Deposit addresses (`known`, looked up by the caller among `txAddresses`): an output paying one is a deposit of the
 * order of the address's current request, no memo needed; a transaction spending one is the worker's (a sweep to the
 * depository, no deposit; or a refund with its memo, read like the depository's).
 */
export function esploraTxFacts(options: { network: BitcoinNetworkName; depository: string; solver?: string }) {
  const parseAddress = bitcoinFamily([options.network]).address.parse;
  const depositoryScript = Buffer.from(
    address.toOutputScript(options.depository, BITCOIN_NETWORKS[options.network]),
  ).toString("hex");

  function memoOf(tx: EsploraTx) {
    const opReturn = tx.vout.find((output) => output.scriptpubkey_type === "op_return");
    const payload = opReturn && bscript.decompile(Buffer.from(opReturn.scriptpubkey, "hex"))?.[1];
    return payload instanceof Uint8Array ? parseDepositMemo(payload, parseAddress) : undefined;
  }
  const spendsDepository = (tx: EsploraTx) => tx.vin.some((input) => input.prevout?.scriptpubkey === depositoryScript);
  const spendsDepositAddress = (tx: EsploraTx, known: KnownDepositAddresses) =>
    tx.vin.some((input) => known.has(input.prevout?.scriptpubkey_address ?? ""));
  const solverScript =
    options.solver &&
    Buffer.from(address.toOutputScript(options.solver, BITCOIN_NETWORKS[options.network])).toString("hex");
  const spendsSolver = (tx: EsploraTx) =>
    solverScript !== undefined && tx.vin.some((input) => input.prevout?.scriptpubkey === solverScript);

  return {
    deposits(tx: EsploraTx, known: KnownDepositAddresses = NONE): InTx<DepositFact>[] {
      if (spendsDepository(tx) || spendsDepositAddress(tx, known)) return [];
      const memo = memoOf(tx);
      const txFrom = tx.vin[0]?.prevout?.scriptpubkey_address ?? "";
      return tx.vout.flatMap((output, vout) => {
        const fact = {
          txHash: tx.txid,
          logIndex: vout,
          currency: BITCOIN_NATIVE_CURRENCY,
          amount: BigInt(output.value),
          txFrom,
          txFee: BigInt(tx.fee),
        };
        if (output.scriptpubkey === depositoryScript)
          return [{ ...fact, orderId: memo?.orderId ?? NO_ORDER, depositor: memo?.depositor ?? txFrom }];
        const owner = known.get(output.scriptpubkey_address ?? "");
        return owner ? [{ ...fact, orderId: owner.orderId, depositor: txFrom }] : [];
      });
    },
    fills(tx: EsploraTx): InTx<FillFact>[] {
      const memo = spendsSolver(tx) && !spendsDepository(tx) ? memoOf(tx) : undefined;
      if (!memo) return [];
      return tx.vout.flatMap((output, vout) =>
        output.scriptpubkey === solverScript ||
        output.scriptpubkey === depositoryScript ||
        output.scriptpubkey_type === "op_return"
          ? []
          : [
              {
                txHash: tx.txid,
                logIndex: vout,
                requestId: computeRequestId(memo.orderId as `0x${string}`),
                currency: BITCOIN_NATIVE_CURRENCY,
                recipient: output.scriptpubkey_address ?? "",
                amount: BigInt(output.value),
                txFee: BigInt(tx.fee),
              },
            ],
      );
    },
    withdrawals(tx: EsploraTx, known: KnownDepositAddresses = NONE): InTx<WithdrawalFact>[] {
      const memo = spendsDepository(tx) || spendsDepositAddress(tx, known) ? memoOf(tx) : undefined;
      if (!memo) return [];
      return tx.vout.flatMap((output, vout) =>
        output.scriptpubkey === depositoryScript || output.scriptpubkey_type === "op_return"
          ? []
          : [
              {
                txHash: tx.txid,
                logIndex: vout,
                orderId: memo.orderId,
                currency: BITCOIN_NATIVE_CURRENCY,
                recipient: output.scriptpubkey_address ?? "",
                amount: BigInt(output.value),
              },
            ],
      );
    },
  };
}
