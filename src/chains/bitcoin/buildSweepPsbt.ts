import { type Network, type Psbt, address } from "bitcoinjs-lib";
import { dustLimit } from "./dustLimit.js";
import { psbtSpending } from "./psbtSpending.js";

/** Virtual size of a sweep: one P2WPKH input paying one P2WPKH output, no memo. */
export const SWEEP_VBYTES = 110;
/** What one more P2WPKH output adds: the excess returned in the same transaction. */
export const EXCESS_OUTPUT_VBYTES = 31;

/**
 * The sweep of one deposit-address deposit: it spends the deposit's output whole and pays it, less the fee, to the
 * depository, without a memo (the poller knows the spend of a deposit address for a sweep, never a deposit). A deposit
 * too small to leave more than the depository's dust limit after the fee is refused. With `excess` (a strict
 * EXACT_OUTPUT overpayment), the depository keeps `keep` less the fee and the rest goes back to `excess.recipient`,
 * less the cost of its own output; a return that would be dust after that stays with the depository.
 */
export function buildSweepPsbt(input: {
  network: Network;
  depositAddress: string;
  depository: string;
  deposit: { txid: string; vout: number; value: bigint };
  feeRate: number;
  excess?: { recipient: string; keep: bigint };
}): { psbt: Psbt; amount: bigint; fee: bigint; returned?: { recipient: string; amount: bigint } } {
  const { network } = input;
  const rate = Math.max(1, input.feeRate);
  const depositoryScript = address.toOutputScript(input.depository, network);
  const returned = input.excess && excessReturn(input.excess, input.deposit.value, rate, network);
  const fee = BigInt(Math.ceil((SWEEP_VBYTES + (returned ? EXCESS_OUTPUT_VBYTES : 0)) * rate));
  const amount = input.deposit.value - fee - (returned?.amount ?? 0n);
  if (amount < dustLimit(depositoryScript))
    throw new Error(`a deposit of ${input.deposit.value} satoshis leaves no more than dust after a ${fee} fee`);
  const psbt = psbtSpending(network, input.depositAddress, input.deposit);
  psbt.addOutput({ script: depositoryScript, value: amount });
  if (returned) psbt.addOutput({ script: address.toOutputScript(returned.recipient, network), value: returned.amount });
  return { psbt, amount, fee, ...(returned ? { returned } : {}) };
}

/** The excess over `keep`, less its output's share of the fee; undefined when nothing worth an output is left. */
function excessReturn(excess: { recipient: string; keep: bigint }, value: bigint, rate: number, network: Network) {
  const amount = value - excess.keep - BigInt(Math.ceil(EXCESS_OUTPUT_VBYTES * rate));
  const dust = dustLimit(address.toOutputScript(excess.recipient, network));
  return amount >= dust ? { recipient: excess.recipient, amount } : undefined;
}
