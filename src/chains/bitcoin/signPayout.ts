import type { Network } from "bitcoinjs-lib";
import type { ECPairInterface } from "ecpair";
import { type SpendableOutput, buildDepositPsbt } from "./buildDepositPsbt.js";
import { encodeDepositMemo } from "./encodeDepositMemo.js";

export type PayoutInput = {
  network: Network;
  /** The solver's wallet: pays from these outputs of its own and gets the change. */
  solver: string;
  signer: ECPairInterface;
  utxos: readonly SpendableOutput[];
  recipient: string;
  amount: bigint;
  /** Written as the OP_RETURN (ASCII `0x` + 64 hex), as deposits carry it: the poller matches the fill by it. */
  orderId: string;
  /** sat/vB, as /fee-estimates answers. */
  feeRate: number;
};

export type SignedPayout = { rawTx: string; txHash: string; fee: bigint; vsize: number };

/**
 * The solver's payment of one EVM → BTC fill, signed: the solver's outputs (largest first) cover the amount and the
 * fee at `feeRate`, the recipient is paid `amount` (output 0), the order id is the OP_RETURN memo, the change goes
 * back to the solver (none when it would be dust). Inputs signal RBF, so a stuck payout can be re-priced
 * (`bumpPayoutFee`). INSUFFICIENT_FUNDS when the outputs do not cover the payout and its fee.
 */
export function signPayout(input: PayoutInput): SignedPayout {
  const { psbt, fee } = buildDepositPsbt({
    network: input.network,
    payer: input.solver,
    utxos: input.utxos,
    payee: input.recipient,
    amount: input.amount,
    memo: encodeDepositMemo(input.orderId),
    feeRate: input.feeRate,
  });
  psbt.signAllInputs(input.signer);
  psbt.finalizeAllInputs();
  const tx = psbt.extractTransaction();
  return { rawTx: tx.toHex(), txHash: tx.getId(), fee, vsize: tx.virtualSize() };
}
