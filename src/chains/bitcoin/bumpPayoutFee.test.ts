import { Transaction, networks } from "bitcoinjs-lib";
import { describe, expect, it } from "vitest";
import { devnetBitcoinKey } from "../../../devnet/bitcoin/devnetBitcoinKey.js";
import { ecPair } from "../../../devnet/bitcoin/ecPair.js";
import { bumpPayoutFee } from "./bumpPayoutFee.js";
import { signPayout } from "./signPayout.js";

const network = networks.regtest;
const solver = devnetBitcoinKey("bump solver");
const signer = ecPair.fromWIF(solver.wif, network);
const recipient = devnetBitcoinKey("bump recipient").address;
const utxo = { txid: "11".repeat(32), vout: 1, value: 100_000n };
const payout = (amount: bigint, feeRate = 2) =>
  signPayout({
    network,
    solver: solver.address,
    signer,
    utxos: [utxo],
    recipient,
    amount,
    orderId: `0x${"cd".repeat(32)}`,
    feeRate,
  });

const bump = (rawTx: string, feeRate: number, maxFeeRate = 500) =>
  bumpPayoutFee({ network, solver: solver.address, signer, rawTx, inputValues: [utxo.value], feeRate, maxFeeRate });

describe("bumpPayoutFee", () => {
  it("spends the same inputs, pays the same recipient and memo, and takes the higher fee from the change", () => {
    const stuck = payout(60_000n);
    const bumped = bump(stuck.rawTx, 1)!;
    const [before, after] = [Transaction.fromHex(stuck.rawTx), Transaction.fromHex(bumped.rawTx)];
    expect(after.ins.map((input) => [Buffer.from(input.hash).toString("hex"), input.index])).toEqual(
      before.ins.map((input) => [Buffer.from(input.hash).toString("hex"), input.index]),
    );
    expect(after.outs.slice(0, 2)).toEqual(before.outs.slice(0, 2));
    // At 2 sat/vB the relay rule (old fee + 1 sat/vB of the size) beats a quarter more and the 1 sat/vB market.
    expect(bumped.fee).toBe(stuck.fee + BigInt(before.virtualSize()));
    expect(after.outs[2]!.value).toBe(before.outs[2]!.value - (bumped.fee - stuck.fee));
    expect(bumped.txHash).not.toBe(stuck.txHash);
    // A busier market sets the fee: its rate times the size.
    const busy = bump(stuck.rawTx, 20)!;
    expect(busy.fee).toBe(BigInt(Transaction.fromHex(stuck.rawTx).virtualSize() * 20));
  });

  it("adds at least a quarter to a payout already paying a high rate", () => {
    const dear = payout(60_000n, 10);
    const bumped = bump(dear.rawTx, 1)!;
    expect(bumped.fee).toBe((dear.fee * 5n) / 4n);
  });

  it("makes no replacement that would pay more than the fee-rate cap", () => {
    const dear = payout(60_000n, 10);
    // A quarter more than 10 sat/vB is 12.5: over a cap of 12, within one of 13.
    expect(bump(dear.rawTx, 1, 12)).toBeUndefined();
    expect(bump(dear.rawTx, 1, 13)?.fee).toBe((dear.fee * 5n) / 4n);
    // The market's rate is capped before it gets here; a cap below it still stops the bump.
    expect(bump(payout(60_000n).rawTx, 900, 100)).toBeUndefined();
  });

  it("leaves a payout whose change cannot pay more as it is", () => {
    // The change is below the dust limit after the bump.
    const tight = payout(100_000n - 700n);
    expect(Transaction.fromHex(tight.rawTx).outs).toHaveLength(2);
    expect(bump(tight.rawTx, 1)).toBeUndefined();
  });
});
