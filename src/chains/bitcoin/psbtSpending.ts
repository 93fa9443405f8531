import { type Network, Psbt, address } from "bitcoinjs-lib";

/**
 * A PSBT spending one P2WPKH output of `owner` whole (a refund or a sweep of one deposit): the output as its only
 * input, with its `witnessUtxo` and RBF signalled (BIP125); the caller adds the outputs.
 */
export function psbtSpending(
  network: Network,
  owner: string,
  output: { txid: string; vout: number; value: bigint },
): Psbt {
  const psbt = new Psbt({ network });
  psbt.addInput({
    hash: output.txid,
    index: output.vout,
    sequence: 0xfffffffd,
    witnessUtxo: { script: address.toOutputScript(owner, network), value: output.value },
  });
  return psbt;
}
