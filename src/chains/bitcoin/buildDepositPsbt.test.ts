import { Psbt, address, networks, script as bscript } from "bitcoinjs-lib";
import { describe, expect, it } from "vitest";
import { devnetBitcoinKey } from "../../../devnet/bitcoin/devnetBitcoinKey.js";
import { ecPair } from "../../../devnet/bitcoin/ecPair.js";
import { buildDepositPsbt } from "./buildDepositPsbt.js";
import { encodeDepositMemo } from "./encodeDepositMemo.js";

const network = networks.regtest;
const payer = devnetBitcoinKey("psbt payer");
const depository = devnetBitcoinKey("psbt depository").address;
const memo = encodeDepositMemo(`0x${"12".repeat(32)}`);
const txid = (n: number) => n.toString(16).padStart(64, "0");
const base = { network, payer: payer.address, payee: depository, memo, feeRate: 2 };

describe("buildDepositPsbt", () => {
  it("pays the depository with the memo and change back, from the largest outputs first, signable as is", () => {
    const utxos = [
      { txid: txid(1), vout: 0, value: 10_000n },
      { txid: txid(2), vout: 1, value: 60_000n },
      { txid: txid(3), vout: 0, value: 30_000n },
    ];
    const { psbt, fee, inputs } = buildDepositPsbt({ ...base, utxos, amount: 70_000n });
    expect(inputs.map((input) => input.txid)).toEqual([txid(2), txid(3)]);
    // Two P2WPKH inputs, three outputs (P2WPKH, a 68-byte OP_RETURN, P2WPKH): 11 + 2×68 + 31 + 77 + 31 = 286 vB.
    expect(fee).toBe(286n * 2n);
    const outputs = psbt.txOutputs;
    expect(outputs.map((output) => output.value)).toEqual([70_000n, 0n, 90_000n - 70_000n - fee]);
    expect(address.fromOutputScript(outputs[0]!.script, network)).toBe(depository);
    expect(Buffer.from(bscript.decompile(outputs[1]!.script)![1] as Uint8Array)).toEqual(Buffer.from(memo));
    expect(address.fromOutputScript(outputs[2]!.script, network)).toBe(payer.address);
    expect(psbt.data.inputs.every((input) => input.witnessUtxo !== undefined)).toBe(true);

    // What a wallet does with it: from hex, sign every input, finalize, extract.
    const signed = Psbt.fromHex(psbt.toHex(), { network });
    signed.signAllInputs(ecPair.fromWIF(payer.wif, network));
    signed.finalizeAllInputs();
    const tx = signed.extractTransaction();
    expect(tx.virtualSize()).toBeLessThanOrEqual(286);
    expect(signed.getFee()).toBe(fee);
  });

  it("gives change that would be dust to the fee", () => {
    const { psbt, fee } = buildDepositPsbt({
      ...base,
      utxos: [{ txid: txid(1), vout: 0, value: 50_500n }],
      amount: 50_000n,
    });
    expect(psbt.txOutputs).toHaveLength(2);
    expect(fee).toBe(500n);
  });

  it("refuses with INSUFFICIENT_FUNDS when the outputs do not cover the deposit and its fee", () => {
    const utxos = [{ txid: txid(1), vout: 0, value: 50_100n }];
    expect(() => buildDepositPsbt({ ...base, utxos, amount: 50_000n })).toThrow(
      expect.objectContaining({ errorCode: "INSUFFICIENT_FUNDS", status: 400 }),
    );
    expect(() => buildDepositPsbt({ ...base, utxos: [], amount: 1_000n })).toThrow(/has 0 satoshis/);
  });

  it("refuses a payer whose outputs a PSBT with witnessUtxo alone cannot spend", () => {
    const legacy = "mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn";
    expect(() =>
      buildDepositPsbt({ ...base, payer: legacy, utxos: [{ txid: txid(1), vout: 0, value: 90_000n }], amount: 1_000n }),
    ).toThrow(expect.objectContaining({ errorCode: "INVALID_ADDRESS" }));
  });
});
