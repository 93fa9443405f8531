import { address, networks } from "bitcoinjs-lib";
import { describe, expect, it } from "vitest";
import { devnetBitcoinKey } from "../../../devnet/bitcoin/devnetBitcoinKey.js";
import { devnetDepositAddressKey } from "../../../devnet/bitcoin/devnetDepositAddressKey.js";
import { buildSweepPsbt } from "./buildSweepPsbt.js";
import { depositAddressKeys } from "./depositAddressKeys.js";

const network = networks.regtest;
const depository = devnetBitcoinKey("depository").address;
const keys = depositAddressKeys(devnetDepositAddressKey().xprv, "regtest");
const deposit = { txid: "22".repeat(32), vout: 1, value: 50_000n };

describe("buildSweepPsbt", () => {
  it("pays the deposit to the depository less the fee, signed by the deposit address's key", () => {
    const { psbt, amount, fee } = buildSweepPsbt({
      network,
      depositAddress: keys.addressAt(3),
      depository,
      deposit,
      feeRate: 2,
    });
    expect(fee).toBe(220n);
    expect(amount).toBe(49_780n);
    expect(psbt.txOutputs).toHaveLength(1);
    expect(address.fromOutputScript(psbt.txOutputs[0]!.script, network)).toBe(depository);
    psbt.signAllInputs(keys.signerAt!(3));
    psbt.finalizeAllInputs();
    expect(psbt.getFee()).toBe(220n);
    // Another index's key cannot sign it.
    const other = buildSweepPsbt({ network, depositAddress: keys.addressAt(3), depository, deposit, feeRate: 2 });
    expect(() => other.psbt.signAllInputs(keys.signerAt!(4))).toThrow();
  });

  it("returns an excess over what the depository keeps in the same transaction, unless it would be dust", () => {
    const refundTo = devnetBitcoinKey("account 2").address;
    const swept = buildSweepPsbt({
      network,
      depositAddress: keys.addressAt(3),
      depository,
      deposit,
      feeRate: 2,
      excess: { recipient: refundTo, keep: 40_000n },
    });
    // The depository keeps 40,000 less the sweep's own fee; the excess pays for its output.
    expect(swept.amount).toBe(40_000n - 220n);
    expect(swept.returned).toEqual({ recipient: refundTo, amount: 10_000n - 62n });
    expect(swept.fee).toBe(282n);
    expect(swept.psbt.txOutputs.map((output) => address.fromOutputScript(output.script, network))).toEqual([
      depository,
      refundTo,
    ]);
    expect(swept.amount + swept.fee + swept.returned!.amount).toBe(deposit.value);
    const dust = buildSweepPsbt({
      network,
      depositAddress: keys.addressAt(3),
      depository,
      deposit,
      feeRate: 2,
      excess: { recipient: refundTo, keep: 49_700n },
    });
    expect(dust.returned).toBeUndefined();
    expect(dust.psbt.txOutputs).toHaveLength(1);
  });

  it("refuses a deposit the fee would leave as dust", () => {
    expect(() =>
      buildSweepPsbt({
        network,
        depositAddress: keys.addressAt(0),
        depository,
        deposit: { ...deposit, value: 400n },
        feeRate: 1,
      }),
    ).toThrow(/no more than dust/);
  });
});
