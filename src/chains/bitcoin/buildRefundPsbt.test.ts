import { address, networks, script as bscript } from "bitcoinjs-lib";
import { describe, expect, it } from "vitest";
import { devnetBitcoinKey } from "../../../devnet/bitcoin/devnetBitcoinKey.js";
import { ecPair } from "../../../devnet/bitcoin/ecPair.js";
import { NO_ORDER } from "../chainFacts.js";
import { buildRefundPsbt } from "./buildRefundPsbt.js";

const network = networks.regtest;
const depository = devnetBitcoinKey("depository");
const recipient = devnetBitcoinKey("account 1").address;
const orderId = `0x${"ab".repeat(32)}`;
const deposit = { txid: "11".repeat(32), vout: 2, value: 100_000n };

describe("buildRefundPsbt", () => {
  it("spends the deposit output whole: the refund to the recipient, the memo, the rest as fee", () => {
    const psbt = buildRefundPsbt({
      network,
      depository: depository.address,
      deposit,
      recipient,
      amount: 99_700n,
      orderId,
    });
    expect(psbt.txInputs.map((input) => input.index)).toEqual([2]);
    expect(psbt.txOutputs.map((output) => output.value)).toEqual([99_700n, 0n]);
    expect(address.fromOutputScript(psbt.txOutputs[0]!.script, network)).toBe(recipient);
    const memo = bscript.decompile(psbt.txOutputs[1]!.script)![1] as Uint8Array;
    expect(Buffer.from(memo).toString("latin1")).toBe(orderId);
    psbt.signAllInputs(ecPair.fromWIF(depository.wif, network));
    psbt.finalizeAllInputs();
    expect(psbt.getFee()).toBe(300n);
  });

  it("writes no memo for a deposit that named no order (an unmatched deposit's refund)", () => {
    const psbt = buildRefundPsbt({
      network,
      depository: depository.address,
      deposit,
      recipient,
      amount: 99_800n,
      orderId: NO_ORDER,
    });
    expect(psbt.txOutputs.map((output) => output.value)).toEqual([99_800n]);
    expect(address.fromOutputScript(psbt.txOutputs[0]!.script, network)).toBe(recipient);
  });

  it("refuses a refund that leaves nothing for the fee", () => {
    expect(() =>
      buildRefundPsbt({ network, depository: depository.address, deposit, recipient, amount: 100_000n, orderId }),
    ).toThrow(/leaves no fee/);
  });
});
