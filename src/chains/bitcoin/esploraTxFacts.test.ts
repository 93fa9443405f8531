import { address, networks, script as bscript } from "bitcoinjs-lib";
import { describe, expect, it } from "vitest";
import { NO_ORDER } from "../chainFacts.js";
import { devnetBitcoinKey } from "../../../devnet/bitcoin/devnetBitcoinKey.js";
import { BITCOIN_NATIVE_CURRENCY } from "./bitcoinFamily.js";
import type { EsploraOutput, EsploraTx } from "./createEsploraClient.js";
import { computeRequestId } from "../../domain/order.js";
import { esploraTxFacts, txAddresses } from "./esploraTxFacts.js";

const depository = devnetBitcoinKey("depository").address;
const payer = devnetBitcoinKey("account 1").address;
const orderId = `0x${"ab".repeat(32)}`;
const pays = (to: string, value: number): EsploraOutput => ({
  scriptpubkey: Buffer.from(address.toOutputScript(to, networks.regtest)).toString("hex"),
  scriptpubkey_type: "v0_p2wpkh",
  scriptpubkey_address: to,
  value,
});
const memo = (text: string): EsploraOutput => ({
  scriptpubkey: Buffer.from(bscript.compile([bscript.OPS.OP_RETURN, Buffer.from(text, "latin1")])).toString("hex"),
  scriptpubkey_type: "op_return",
  value: 0,
});
const tx = (from: string, vout: EsploraOutput[]): EsploraTx => ({
  txid: "cd".repeat(32),
  fee: 250,
  vin: [{ txid: "ef".repeat(32), vout: 0, prevout: pays(from, 1_000_000) }],
  vout,
  status: { confirmed: false },
});
const facts = esploraTxFacts({ network: "regtest", depository });

describe("esploraTxFacts", () => {
  it("reads each output paying the depository as a deposit of the memo's order, from its first input", () => {
    const deposit = tx(payer, [pays(depository, 600_000), memo(orderId), pays(payer, 399_750)]);
    expect(facts.deposits(deposit)).toEqual([
      {
        txHash: deposit.txid,
        logIndex: 0,
        orderId,
        depositor: payer,
        currency: BITCOIN_NATIVE_CURRENCY,
        amount: 600_000n,
        txFrom: payer,
        txFee: 250n,
      },
    ]);
    expect(facts.withdrawals(deposit)).toEqual([]);
    expect(facts.deposits(tx(payer, [pays(depository, 5_000), memo("not a memo")]))).toMatchObject([
      { orderId: NO_ORDER },
    ]);
  });

  it("reads a depository spend with a memo as that order's refund, one without as nothing", () => {
    const refund = tx(depository, [pays(payer, 590_000), memo(orderId)]);
    expect(facts.deposits(refund)).toEqual([]);
    expect(facts.withdrawals(refund)).toEqual([
      {
        txHash: refund.txid,
        logIndex: 0,
        orderId,
        currency: BITCOIN_NATIVE_CURRENCY,
        recipient: payer,
        amount: 590_000n,
      },
    ]);
    expect(facts.withdrawals(tx(depository, [pays(payer, 590_000)]))).toEqual([]);
  });

  it("reads a payment of the solver's whose memo names an order as that order's fill, change and memo aside", () => {
    const solver = devnetBitcoinKey("solver").address;
    const withSolver = esploraTxFacts({ network: "regtest", depository, solver });
    const payout = tx(solver, [pays(payer, 70_000), memo(orderId), pays(solver, 929_750)]);
    expect(withSolver.fills(payout)).toEqual([
      {
        txHash: payout.txid,
        logIndex: 0,
        requestId: computeRequestId(orderId as `0x${string}`),
        currency: BITCOIN_NATIVE_CURRENCY,
        recipient: payer,
        amount: 70_000n,
        txFee: 250n,
      },
    ]);
    expect(withSolver.deposits(payout)).toEqual([]);
    // Anyone else's payment naming the order is no fill; nor is the solver's without a memo, nor any without a solver.
    expect(withSolver.fills(tx(payer, [pays(payer, 70_000), memo(orderId)]))).toEqual([]);
    expect(withSolver.fills(tx(solver, [pays(payer, 70_000), pays(solver, 929_750)]))).toEqual([]);
    expect(facts.fills(payout)).toEqual([]);
    // A user's deposit (paying the depository) keeps being one.
    const deposit = tx(payer, [pays(depository, 600_000), memo(orderId), pays(payer, 399_750)]);
    expect(withSolver.fills(deposit)).toEqual([]);
    expect(withSolver.deposits(deposit)).toHaveLength(1);
  });

  it("reads a payment to a known deposit address as its order's deposit, and that address's spends as no deposit", () => {
    const depositAddress = devnetBitcoinKey("deposit address 0").address;
    const known = new Map([[depositAddress, { orderId }]]);
    const payment = tx(payer, [pays(depositAddress, 70_000), pays(payer, 929_750)]);
    expect(txAddresses(payment)).toEqual([payer, depositAddress, payer]);
    expect(facts.deposits(payment, known)).toEqual([
      {
        txHash: payment.txid,
        logIndex: 0,
        orderId,
        depositor: payer,
        currency: BITCOIN_NATIVE_CURRENCY,
        amount: 70_000n,
        txFrom: payer,
        txFee: 250n,
      },
    ]);
    // Unknown to the caller: no deposit at all (no depository output, no memo).
    expect(facts.deposits(payment)).toEqual([]);
    // The sweep to the depository is no deposit; without the lookup it would read as an unmatched one.
    const sweep = tx(depositAddress, [pays(depository, 69_800)]);
    expect(facts.deposits(sweep, known)).toEqual([]);
    expect(facts.withdrawals(sweep, known)).toEqual([]);
    expect(facts.deposits(sweep)).toMatchObject([{ orderId: NO_ORDER }]);
    // A refund from the deposit address carries the order's memo: a withdrawal of that order.
    const refund = tx(depositAddress, [pays(payer, 69_700), memo(orderId)]);
    expect(facts.deposits(refund, known)).toEqual([]);
    expect(facts.withdrawals(refund, known)).toMatchObject([{ orderId, recipient: payer, amount: 69_700n }]);
  });
});
