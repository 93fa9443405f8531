import { Psbt, Transaction, address } from "bitcoinjs-lib";
import type { PayoutBumpInput } from "./bumpPayoutFee.js";
import { dustLimit } from "./dustLimit.js";
import { replacementFee } from "./replacementFee.js";
import type { SignedPayout } from "./signPayout.js";

/** As a bump's: the payout to cancel (its newest version, the highest fee of them all), its input values, the rate. */
export type PayoutCancelInput = Omit<PayoutBumpInput, "maxFeeRate">;

/**
 * The cancellation of a payout (BIP125, full RBF): the same inputs, everything back to the solver in one output, at a
 * fee that replaces any version of the payout a node may hold (replacementFee, counted on its own size); smaller than
 * the payout, its rate is higher too. Once it confirms no version of the payout ever can: only then is the request refunded. A cancellation
 * is not held to the fee-rate cap (it must outbid what was already paid), but it pays at most that plus the cap.
 */
export function cancelPayout(input: PayoutCancelInput): SignedPayout {
  const payout = Transaction.fromHex(input.rawTx);
  const solverScript = address.toOutputScript(input.solver, input.network);
  const spent = input.inputValues.reduce((sum, value) => sum + value, 0n);
  const oldFee = spent - payout.outs.reduce((sum, output) => sum + output.value, 0n);
  const sign = (fee: bigint) => {
    const psbt = new Psbt({ network: input.network });
    payout.ins.forEach((txIn, index) =>
      psbt.addInput({
        hash: txIn.hash,
        index: txIn.index,
        sequence: 0xfffffffd,
        witnessUtxo: { script: solverScript, value: input.inputValues[index]! },
      }),
    );
    psbt.addOutput({ script: solverScript, value: spent - fee });
    psbt.signAllInputs(input.signer);
    psbt.finalizeAllInputs();
    return psbt.extractTransaction();
  };
  // Its size does not depend on the fee but for a signature byte: measured once, one vB to spare.
  const vsize = BigInt(sign(oldFee).virtualSize() + 1);
  const fee = replacementFee({ fee: oldFee }, vsize, input.feeRate);
  if (spent - fee < dustLimit(solverScript))
    throw new Error(`the payout's inputs (${spent} satoshis) cannot pay a ${fee}-satoshi cancellation`);
  const tx = sign(fee);
  return { rawTx: tx.toHex(), txHash: tx.getId(), fee, vsize: tx.virtualSize() };
}
