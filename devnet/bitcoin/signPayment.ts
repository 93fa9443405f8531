import { type Network, payments, Psbt, script as bscript } from "bitcoinjs-lib";
import { ecPair } from "./ecPair.js";

export type PaymentInput = { txid: string; vout: number; value: bigint };
export type PaymentOutput = { address: string; value: bigint } | { opReturn: Uint8Array };

/**
 * A P2WPKH payment signed the way a wallet signs a PSBT (witnessUtxo on every input, sign, finalize,
 * extract), as raw hex for `POST /tx`. Each input's `value` goes into its witnessUtxo as given, so a test
 * can make it lie.
 */
export function signPayment(options: {
  network: Network;
  wif: string;
  inputs: PaymentInput[];
  outputs: PaymentOutput[];
}): string {
  const { network } = options;
  const key = ecPair.fromWIF(options.wif, network);
  const script = payments.p2wpkh({ pubkey: key.publicKey, network }).output!;
  const psbt = new Psbt({ network });
  for (const input of options.inputs)
    psbt.addInput({
      hash: input.txid,
      index: input.vout,
      sequence: 0xfffffffd, // signals replaceability (BIP125), as wallets do by default
      witnessUtxo: { script, value: input.value },
    });
  for (const output of options.outputs)
    if ("opReturn" in output)
      psbt.addOutput({ script: bscript.compile([bscript.OPS.OP_RETURN, output.opReturn]), value: 0n });
    else psbt.addOutput({ address: output.address, value: output.value });
  psbt.signAllInputs(key);
  psbt.finalizeAllInputs();
  // No fee sanity check: tests build absurd fees on purpose, and judging them is the node's job.
  return psbt.extractTransaction(true).toHex();
}
