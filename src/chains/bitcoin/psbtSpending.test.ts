import { address, networks } from "bitcoinjs-lib";
import { describe, expect, it } from "vitest";
import { devnetBitcoinKey } from "../../../devnet/bitcoin/devnetBitcoinKey.js";
import { psbtSpending } from "./psbtSpending.js";

describe("psbtSpending", () => {
  it("spends the one output, with the owner's script and value as witnessUtxo, replaceable", () => {
    const owner = devnetBitcoinKey("owner").address;
    const psbt = psbtSpending(networks.regtest, owner, { txid: "ab".repeat(32), vout: 3, value: 12_345n });
    expect(psbt.txInputs).toHaveLength(1);
    expect(psbt.txInputs[0]).toMatchObject({ index: 3, sequence: 0xfffffffd });
    expect(Buffer.from(psbt.txInputs[0]!.hash).reverse().toString("hex")).toBe("ab".repeat(32));
    const { witnessUtxo } = psbt.data.inputs[0]!;
    expect(witnessUtxo?.value).toBe(12_345n);
    expect(address.fromOutputScript(witnessUtxo!.script, networks.regtest)).toBe(owner);
    expect(psbt.txOutputs).toEqual([]);
  });
});
