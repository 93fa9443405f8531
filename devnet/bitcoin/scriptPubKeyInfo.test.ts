import { networks, payments } from "bitcoinjs-lib";
import { describe, expect, it } from "vitest";
import { devnetBitcoinKey } from "./devnetBitcoinKey.js";
import { scriptPubKeyInfo } from "./scriptPubKeyInfo.js";

const network = networks.regtest;

describe("scriptPubKeyInfo", () => {
  it("names the type and gives the regtest address of standard outputs", () => {
    const { address } = devnetBitcoinKey("info");
    const output = payments.p2wpkh({ address, network }).output!;
    expect(scriptPubKeyInfo(output, network)).toMatchObject({ type: "v0_p2wpkh", address });
  });

  it("gives no address for OP_RETURN and unknown scripts", () => {
    expect(scriptPubKeyInfo(Buffer.from("6a0100", "hex"), network)).toEqual({
      type: "op_return",
      asm: "OP_RETURN OP_PUSHBYTES_1 00",
    });
    expect(scriptPubKeyInfo(Buffer.from("51", "hex"), network)).toEqual({ type: "unknown", asm: "OP_PUSHNUM_1" });
  });
});
