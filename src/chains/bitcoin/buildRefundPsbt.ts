import { type Network, type Psbt, address, script as bscript } from "bitcoinjs-lib";
import { NO_ORDER } from "../chainFacts.js";
import { encodeDepositMemo } from "./encodeDepositMemo.js";
import { psbtSpending } from "./psbtSpending.js";

/**
 * The depository's refund of one deposit: it spends the deposit's own output whole, pays `amount` to the recipient
 * and leaves the rest as the fee, with the order id as OP_RETURN memo, which is how the poller knows the spend for
 * that order's refund (a spend of the depository without one is a sweep). The refund of a deposit that named no order
 * (`NO_ORDER`) carries no memo. `depository` is the address the deposit's
 * output pays: the depository, or the deposit address a deposit-address payment went to.
 */
export function buildRefundPsbt(input: {
  network: Network;
  depository: string;
  deposit: { txid: string; vout: number; value: bigint };
  recipient: string;
  amount: bigint;
  orderId: string;
}): Psbt {
  const { network } = input;
  if (input.amount >= input.deposit.value)
    throw new Error(`a refund of ${input.amount} leaves no fee out of ${input.deposit.value}`);
  const psbt = psbtSpending(network, input.depository, input.deposit);
  psbt.addOutput({ script: address.toOutputScript(input.recipient, network), value: input.amount });
  if (input.orderId !== NO_ORDER)
    psbt.addOutput({ script: bscript.compile([bscript.OPS.OP_RETURN, encodeDepositMemo(input.orderId)]), value: 0n });
  return psbt;
}
