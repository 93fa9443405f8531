import { type Network, Psbt, address, script as bscript } from "bitcoinjs-lib";
import { InvalidInputError } from "../../domain/errors.js";
import { dustLimit } from "./dustLimit.js";

export type SpendableOutput = { txid: string; vout: number; value: bigint };

export type DepositPsbtInput = {
  network: Network;
  /** The user: pays from these outputs of its own, gets the change. */
  payer: string;
  utxos: readonly SpendableOutput[];
  /** Who is paid `amount`: the depository (a user's deposit), or the recipient (the solver's payout). */
  payee: string;
  amount: bigint;
  /** The OP_RETURN payload (`encodeDepositMemo`). */
  memo: Uint8Array;
  /** sat/vB, as /fee-estimates answers (may be fractional). */
  feeRate: number;
};

// Virtual sizes (vB) of what a deposit is made of: the segwit transaction's fixed part (version, locktime, counts,
// marker and flag) and a signed input by the payer's output type (a signature is at most 72 bytes, a key path 64).
const TX_OVERHEAD_VB = 10.5;
const INPUT_VB = { p2wpkh: 41 + 108 / 4, p2tr: 41 + 66 / 4 } as const;

/** The payer's output type; only segwit outputs can be signed from a PSBT that carries `witnessUtxo` alone. */
export function payerKind(script: Uint8Array): keyof typeof INPUT_VB | undefined {
  if (script.length === 22 && script[0] === 0x00 && script[1] === 0x14) return "p2wpkh";
  if (script.length === 34 && script[0] === 0x51 && script[1] === 0x20) return "p2tr";
  return undefined;
}

const outputVb = (script: Uint8Array) => 8 + 1 + script.length;

/**
 * The unsigned deposit a Bitcoin user signs: the payer's confirmed outputs, largest first, until they cover the
 * deposit and the fee at `feeRate`; outputs to the payee (the depository), the OP_RETURN memo, and change back to the payer
 * unless the change would be dust (then it goes to the fee). Every input carries `witnessUtxo` and signals RBF.
 * INSUFFICIENT_FUNDS when all of them do not cover the deposit and its fee.
 */
export function buildDepositPsbt(input: DepositPsbtInput): { psbt: Psbt; fee: bigint; inputs: SpendableOutput[] } {
  const { network, amount } = input;
  const payerScript = address.toOutputScript(input.payer, network);
  const kind = payerKind(payerScript);
  if (!kind)
    throw new InvalidInputError(
      "INVALID_ADDRESS",
      `user ${input.payer} must be a native segwit (P2WPKH) or taproot address to sign the deposit PSBT`,
    );
  const payeeScript = address.toOutputScript(input.payee, network);
  const memoScript = bscript.compile([bscript.OPS.OP_RETURN, input.memo]);
  const rate = Math.max(1, input.feeRate);
  const feeFor = (inputs: number, withChange: boolean) => {
    const vbytes =
      TX_OVERHEAD_VB +
      inputs * INPUT_VB[kind] +
      outputVb(payeeScript) +
      outputVb(memoScript) +
      (withChange ? outputVb(payerScript) : 0);
    return BigInt(Math.ceil(Math.ceil(vbytes) * rate));
  };

  const sorted = [...input.utxos].sort((a, b) => (a.value === b.value ? 0 : a.value > b.value ? -1 : 1));
  const chosen: SpendableOutput[] = [];
  let total = 0n;
  for (const utxo of sorted) {
    chosen.push(utxo);
    total += utxo.value;
    const withChange = feeFor(chosen.length, true);
    const change = total - amount - withChange;
    const enough = change >= dustLimit(payerScript) || total >= amount + feeFor(chosen.length, false);
    if (!enough) continue;
    const psbt = new Psbt({ network });
    for (const utxo of chosen)
      psbt.addInput({
        hash: utxo.txid,
        index: utxo.vout,
        sequence: 0xfffffffd, // BIP125: the user may bump the fee of a stuck deposit
        witnessUtxo: { script: payerScript, value: utxo.value },
      });
    psbt.addOutput({ script: payeeScript, value: amount });
    psbt.addOutput({ script: memoScript, value: 0n });
    const keepsChange = change >= dustLimit(payerScript);
    if (keepsChange) psbt.addOutput({ script: payerScript, value: change });
    return { psbt, fee: keepsChange ? withChange : total - amount, inputs: chosen };
  }
  throw new InvalidInputError(
    "INSUFFICIENT_FUNDS",
    `user ${input.payer} has ${total} satoshis in confirmed outputs; the deposit needs ${amount} plus about ${feeFor(Math.max(1, chosen.length), true)} in fees`,
  );
}
