import { Psbt } from "bitcoinjs-lib";
import { ecPair } from "../../devnet/bitcoin/ecPair.js";
import type { DevnetBitcoin } from "../../devnet/bitcoin/startDevnetBitcoin.js";

/** What a wallet does with a Bitcoin deposit step: sign every input, finalize, extract, POST /tx to the Esplora. */
export async function broadcastPsbt(btc: DevnetBitcoin, psbtHex: string, wif: string) {
  const psbt = Psbt.fromHex(psbtHex, { network: btc.network });
  psbt.signAllInputs(ecPair.fromWIF(wif, btc.network));
  psbt.finalizeAllInputs();
  const response = await fetch(`${btc.esploraUrl}/tx`, { method: "POST", body: psbt.extractTransaction().toHex() });
  if (response.status !== 200) throw new Error(`the devnet refused the deposit: ${await response.text()}`);
  return { txid: await response.text(), fee: psbt.getFee(), inputs: psbt.txInputs };
}
