import { Transaction, address, networks, script as bscript } from "bitcoinjs-lib";
import { describe, expect, it } from "vitest";
import { devnetBitcoinKey } from "../../../devnet/bitcoin/devnetBitcoinKey.js";
import { ecPair } from "../../../devnet/bitcoin/ecPair.js";
import { signPayout } from "./signPayout.js";

const network = networks.regtest;
const solver = devnetBitcoinKey("payout solver");
const recipient = devnetBitcoinKey("payout recipient").address;
const ORDER_ID = `0x${"ab".repeat(32)}`;
const txid = (n: number) => n.toString(16).padStart(64, "0");
const base = {
  network,
  solver: solver.address,
  signer: ecPair.fromWIF(solver.wif, network),
  recipient,
  orderId: ORDER_ID,
  feeRate: 3,
};

describe("signPayout", () => {
  it("pays the recipient, writes the order id as OP_RETURN, returns the change to the solver, signed", () => {
    const utxos = [
      { txid: txid(1), vout: 0, value: 50_000n },
      { txid: txid(2), vout: 3, value: 200_000n },
    ];
    const payout = signPayout({ ...base, utxos, amount: 120_000n });
    const tx = Transaction.fromHex(payout.rawTx);
    expect(tx.getId()).toBe(payout.txHash);
    // The larger output alone covers it.
    expect(tx.ins.map((input) => Buffer.from(input.hash).reverse().toString("hex"))).toEqual([txid(2)]);
    expect(tx.ins.every((input) => input.sequence === 0xfffffffd)).toBe(true);
    expect(tx.outs.map((output) => output.value)).toEqual([120_000n, 0n, 200_000n - 120_000n - payout.fee]);
    expect(address.fromOutputScript(tx.outs[0]!.script, network)).toBe(recipient);
    expect(Buffer.from(bscript.decompile(tx.outs[1]!.script)![1] as Uint8Array).toString("latin1")).toBe(ORDER_ID);
    expect(address.fromOutputScript(tx.outs[2]!.script, network)).toBe(solver.address);
    // The fee is the rate times the estimated size, which the signed transaction does not exceed.
    expect(payout.vsize).toBeLessThanOrEqual(Number(payout.fee) / 3);
    expect(tx.ins[0]!.witness).toHaveLength(2);
  });

  it("refuses a payout the solver's outputs cannot cover", () => {
    expect(() => signPayout({ ...base, utxos: [{ txid: txid(1), vout: 0, value: 10_000n }], amount: 10_000n })).toThrow(
      expect.objectContaining({ errorCode: "INSUFFICIENT_FUNDS" }),
    );
  });
});
