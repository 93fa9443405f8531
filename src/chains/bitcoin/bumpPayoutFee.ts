import { type Network, Psbt, Transaction, address } from "bitcoinjs-lib";
import type { ECPairInterface } from "ecpair";
import { dustLimit } from "./dustLimit.js";
import { replacementFee } from "./replacementFee.js";
import type { SignedPayout } from "./signPayout.js";

export type PayoutBumpInput = {
  network: Network;
  solver: string;
  signer: ECPairInterface;
  /** The stuck payout, as stored. */
  rawTx: string;
  /** What each of its inputs spends, in input order (satoshis). */
  inputValues: readonly bigint[];
  /** The rate the market asks now (sat/vB, /fee-estimates, capped). */
  feeRate: number;
  /** The most sat/vB any fee may be (capFeeRate's cap): a replacement that would pay more is not made. */
  maxFeeRate: number;
};

/**
 * The replacement of a stuck payout (BIP125, full RBF): the same inputs and outputs, the change back to the solver
 * lowered to pay a higher fee (replacementFee). Undefined when it has no change that could pay it without
 * falling below the dust limit, or when it would pay more than `maxFeeRate`: it then waits as it is.
 */
export function bumpPayoutFee(input: PayoutBumpInput): SignedPayout | undefined {
  const stuck = Transaction.fromHex(input.rawTx);
  const solverScript = address.toOutputScript(input.solver, input.network);
  const spent = input.inputValues.reduce((sum, value) => sum + value, 0n);
  const oldFee = spent - stuck.outs.reduce((sum, output) => sum + output.value, 0n);
  const vsize = BigInt(stuck.virtualSize());
  const fee = replacementFee({ fee: oldFee }, vsize, input.feeRate);
  if (fee > BigInt(Math.ceil(Number(vsize) * input.maxFeeRate))) return undefined;
  const changeIndex = stuck.outs.findIndex((output) => Buffer.from(output.script).equals(Buffer.from(solverScript)));
  const change = stuck.outs[changeIndex];
  if (!change || change.value - (fee - oldFee) < dustLimit(solverScript)) return undefined;

  const psbt = new Psbt({ network: input.network });
  stuck.ins.forEach((txIn, index) =>
    psbt.addInput({
      hash: txIn.hash,
      index: txIn.index,
      sequence: txIn.sequence,
      witnessUtxo: { script: solverScript, value: input.inputValues[index]! },
    }),
  );
  stuck.outs.forEach((output, index) =>
    psbt.addOutput({
      script: output.script,
      value: index === changeIndex ? output.value - (fee - oldFee) : output.value,
    }),
  );
  psbt.signAllInputs(input.signer);
  psbt.finalizeAllInputs();
  const tx = psbt.extractTransaction();
  return { rawTx: tx.toHex(), txHash: tx.getId(), fee, vsize: tx.virtualSize() };
}
