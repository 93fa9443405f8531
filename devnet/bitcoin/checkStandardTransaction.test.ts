import { networks, payments, Transaction } from "bitcoinjs-lib";
import { describe, expect, it } from "vitest";
import { checkStandardTransaction } from "./checkStandardTransaction.js";
import { devnetBitcoinKey } from "./devnetBitcoinKey.js";

const output = payments.p2wpkh({ address: devnetBitcoinKey("std").address, network: networks.regtest }).output!;
const opReturn = payments.embed({ data: [new Uint8Array(8)] }).output!;

function tx(build: (t: Transaction) => void) {
  const t = new Transaction();
  t.version = 2;
  build(t);
  return () => checkStandardTransaction(t);
}

describe("checkStandardTransaction", () => {
  it("accepts a payment with one OP_RETURN", () => {
    const check = tx((t) => {
      t.addInput(new Uint8Array(32).fill(1), 0);
      t.addOutput(output, 10_000n);
      t.addOutput(opReturn, 0n);
    });
    expect(check).not.toThrow();
  });

  it.each([
    ["bad-txns-vin-empty", (t: Transaction) => t.addOutput(output, 10_000n)],
    ["bad-txns-vout-empty", (t: Transaction) => t.addInput(new Uint8Array(32).fill(1), 0)],
    [
      "bad-txns-inputs-duplicate",
      (t: Transaction) => {
        t.addInput(new Uint8Array(32).fill(1), 0);
        t.addInput(new Uint8Array(32).fill(1), 0);
        t.addOutput(output, 10_000n);
      },
    ],
    [
      "multi-op-return",
      (t: Transaction) => {
        t.addInput(new Uint8Array(32).fill(1), 0);
        t.addOutput(opReturn, 0n);
        t.addOutput(opReturn, 0n);
      },
    ],
    [
      "scriptpubkey",
      (t: Transaction) => {
        t.addInput(new Uint8Array(32).fill(1), 0);
        t.addOutput(new Uint8Array([0x51]), 10_000n);
      },
    ],
    [
      "version",
      (t: Transaction) => {
        t.version = 4;
        t.addInput(new Uint8Array(32).fill(1), 0);
        t.addOutput(output, 10_000n);
      },
    ],
  ])("refuses %s", (reason, build) => {
    expect(tx(build)).toThrow(new RegExp(`^${reason}$`));
  });
});
