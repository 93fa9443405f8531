import { Transaction, address, networks } from "bitcoinjs-lib";
import { describe, expect, it } from "vitest";
import { devnetBitcoinKey } from "../../../devnet/bitcoin/devnetBitcoinKey.js";
import { ecPair } from "../../../devnet/bitcoin/ecPair.js";
import { cancelPayout } from "./cancelPayout.js";
import { signPayout } from "./signPayout.js";

describe("cancelPayout", () => {
  const network = networks.regtest;
  const wallet = devnetBitcoinKey("cancel solver");
  const signer = ecPair.fromWIF(wallet.wif, network);
  const inputs = [
    { txid: "21".repeat(32), vout: 0, value: 40_000n },
    { txid: "22".repeat(32), vout: 3, value: 30_000n },
  ];
  const payout = signPayout({
    ...{ network, solver: wallet.address, signer, utxos: inputs, feeRate: 3 },
    ...{ recipient: devnetBitcoinKey("cancel recipient").address, amount: 60_000n, orderId: `0x${"ef".repeat(32)}` },
  });
  const values = Transaction.fromHex(payout.rawTx).ins.map(
    (input) => inputs.find((utxo) => Buffer.from(input.hash).reverse().toString("hex") === utxo.txid)!.value,
  );

  it("spends the payout's inputs back to the solver alone, outbidding it by the relay rule", () => {
    const cancel = cancelPayout({
      network,
      solver: wallet.address,
      signer,
      rawTx: payout.rawTx,
      inputValues: values,
      feeRate: 1,
    });
    const [before, after] = [Transaction.fromHex(payout.rawTx), Transaction.fromHex(cancel.rawTx)];
    const outpoints = (tx: Transaction) =>
      tx.ins.map((input) => `${Buffer.from(input.hash).toString("hex")}:${input.index}`);
    expect(outpoints(after)).toEqual(outpoints(before));
    expect(after.ins.every((input) => input.sequence === 0xfffffffd)).toBe(true);
    expect(after.outs).toHaveLength(1);
    expect(address.fromOutputScript(after.outs[0]!.script, network)).toBe(wallet.address);
    expect(after.outs[0]!.value).toBe(70_000n - cancel.fee);
    expect(cancel.fee).toBeGreaterThanOrEqual(payout.fee + BigInt(after.virtualSize()));
    // Smaller and dearer: a higher rate too.
    expect(Number(cancel.fee) / after.virtualSize()).toBeGreaterThan(Number(payout.fee) / before.virtualSize());
    // A busy market sets the fee.
    const busy = cancelPayout({
      network,
      solver: wallet.address,
      signer,
      rawTx: payout.rawTx,
      inputValues: values,
      feeRate: 200,
    });
    expect(busy.fee).toBeGreaterThanOrEqual(BigInt(Transaction.fromHex(busy.rawTx).virtualSize() * 200));
  });
});
