import { crypto, networks, payments, Psbt, type Signer, Transaction } from "bitcoinjs-lib";
import { describe, expect, it } from "vitest";
import { devnetBitcoinKey } from "./devnetBitcoinKey.js";
import { ecPair } from "./ecPair.js";
import { createRegtestChain } from "./regtestChain.js";
import { RejectedTransaction } from "./RejectedTransaction.js";

const network = networks.regtest;
const key = ecPair.fromWIF(devnetBitcoinKey("regtestChain test").wif, network);
const xOnly = key.publicKey.subarray(1, 33);
const p2wpkh = payments.p2wpkh({ pubkey: key.publicKey, network });
const p2shP2wpkh = payments.p2sh({ redeem: p2wpkh, network });
const p2tr = payments.p2tr({ internalPubkey: xOnly, network });
const p2pkh = payments.p2pkh({ pubkey: key.publicKey, network });
const p2wsh = payments.p2wsh({ redeem: { output: p2wpkh.output! }, network });
const value = 100_000_000n;
const payee = devnetBitcoinKey("payee").address;

function newChain() {
  const scripts = [p2wpkh, p2shP2wpkh, p2tr, p2pkh, p2wsh, p2wpkh].map((p) => p.output!);
  const chain = createRegtestChain({
    network,
    minerScript: p2wpkh.output!,
    funding: scripts.map((script) => ({ script, value })),
    now: () => 1_800_000_000_000,
  });
  const fundingTxids = chain.tip().txs.map((t) => t.txid);
  return { chain, fundingTxids };
}

/** Spends genesis output `index` to the payee, signed as a wallet would for that script type. */
function spend(chain: ReturnType<typeof createRegtestChain>, txid: string, kind: string, fee = 1_000n): Transaction {
  const psbt = new Psbt({ network });
  const base = { hash: txid, index: 0, sequence: 0xfffffffd };
  let signer: Signer = key;
  if (kind === "p2wpkh") psbt.addInput({ ...base, witnessUtxo: { script: p2wpkh.output!, value } });
  if (kind === "p2sh-p2wpkh")
    psbt.addInput({ ...base, witnessUtxo: { script: p2shP2wpkh.output!, value }, redeemScript: p2wpkh.output! });
  if (kind === "p2tr") {
    psbt.addInput({ ...base, witnessUtxo: { script: p2tr.output!, value }, tapInternalKey: xOnly });
    signer = key.tweak(crypto.taggedHash("TapTweak", xOnly));
  }
  if (kind === "p2pkh") psbt.addInput({ ...base, nonWitnessUtxo: chain.findTx(txid)!.entry.tx.toBuffer() });
  psbt.addOutput({ address: payee, value: value - fee });
  psbt.signAllInputs(signer);
  psbt.finalizeAllInputs();
  return psbt.extractTransaction();
}

const reason = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    if (err instanceof RejectedTransaction) return err.reason;
    throw err;
  }
  return "accepted";
};

describe("createRegtestChain", () => {
  it("builds blocks with real merkle roots, witness commitments and linked header hashes", () => {
    const { chain, fundingTxids } = newChain();
    chain.submit(spend(chain, fundingTxids[0]!, "p2wpkh").toHex());
    const [hash] = chain.mine(1);
    const tip = chain.tip();
    expect(tip.hash).toBe(hash);
    expect(tip.block.checkTxRoots()).toBe(true);
    expect(tip.block.hasWitnessCommit()).toBe(true);
    expect(Buffer.from(tip.block.prevHash!).reverse().toString("hex")).toBe(chain.blockAtHeight(0)!.hash);
    expect(chain.blockAtHeight(0)!.block.checkTxRoots()).toBe(true);
  });

  it.each(["p2wpkh", "p2sh-p2wpkh", "p2tr", "p2pkh"] as const)("verifies %s signatures", (kind) => {
    const { chain, fundingTxids } = newChain();
    const index = ["p2wpkh", "p2sh-p2wpkh", "p2tr", "p2pkh"].indexOf(kind);
    const good = spend(chain, fundingTxids[index]!, kind);
    const bad = Transaction.fromHex(good.toHex());
    bad.outs[0]!.value -= 1n; // the signature no longer covers the outputs
    expect(reason(() => chain.submit(bad.toHex()))).toMatch(/^mandatory-script-verify-flag-failed/);
    expect(chain.submit(good.toHex())).toBe(good.getId());
  });

  it("refuses input types it cannot verify instead of accepting them unchecked", () => {
    const { chain, fundingTxids } = newChain();
    const tx = new Transaction();
    tx.version = 2;
    tx.addInput(Buffer.from(fundingTxids[4]!, "hex").reverse(), 0);
    tx.addOutput(p2wpkh.output!, value - 1_000n);
    tx.setWitness(0, [p2wpkh.output!]);
    expect(reason(() => chain.submit(tx.toHex()))).toBe(
      "mandatory-script-verify-flag-failed (the devnet does not verify v0_p2wsh inputs)",
    );
  });

  it("mines by fee rate, parents before children, and pays the fees to the miner", () => {
    const { chain, fundingTxids } = newChain();
    const cheap = spend(chain, fundingTxids[0]!, "p2wpkh", 200n);
    const dear = spend(chain, fundingTxids[5]!, "p2wpkh", 5_000n);
    chain.submit(cheap.toHex());
    chain.submit(dear.toHex());
    chain.mine(1);
    const [coinbase, ...rest] = chain.tip().txs;
    expect(rest.map((t) => t.txid)).toEqual([dear.getId(), cheap.getId()]);
    expect(coinbase!.tx.outs[0]!.value).toBe(5_000_000_000n + 5_200n);
    expect(chain.mempool()).toEqual([]);
  });

  it("a reorg re-queues the disconnected transactions, minus dropped ones and what spends them", () => {
    const { chain, fundingTxids } = newChain();
    const parent = spend(chain, fundingTxids[0]!, "p2wpkh");
    chain.submit(parent.toHex());
    const payeeKey = ecPair.fromWIF(devnetBitcoinKey("payee").wif, network);
    const psbt = new Psbt({ network });
    psbt.addInput({
      hash: parent.getId(),
      index: 0,
      witnessUtxo: { script: parent.outs[0]!.script, value: value - 1_000n },
    });
    psbt.addOutput({ address: payee, value: value - 2_000n });
    psbt.signAllInputs(payeeKey).finalizeAllInputs();
    const child = psbt.extractTransaction();
    chain.submit(child.toHex());
    const [stale] = chain.mine(1);

    chain.reorg(1);
    expect(chain.mempool().map((t) => t.txid)).toEqual([parent.getId(), child.getId()]);
    expect(chain.isInBestChain(chain.blockByHash(stale!)!)).toBe(false);
    expect(chain.tip().height).toBe(2);

    chain.mine(1);
    chain.reorg(1, { dropTxids: [parent.getId()] });
    expect(chain.mempool()).toEqual([]);
    expect(chain.findTx(child.getId())).toBeUndefined();
    expect(chain.spenderOf(fundingTxids[0]!, 0)).toBeUndefined();
    expect(() => chain.reorg(chain.tip().height + 1)).toThrow(/reorg depth/);
  });

  it("answers a rebroadcast of a mempool transaction with its txid and refuses a confirmed one", () => {
    const { chain, fundingTxids } = newChain();
    const tx = spend(chain, fundingTxids[0]!, "p2wpkh");
    chain.submit(tx.toHex());
    expect(chain.submit(tx.toHex())).toBe(tx.getId());
    chain.mine(1);
    expect(reason(() => chain.submit(tx.toHex()))).toBe("Transaction already in block chain");
  });
});

describe("createRegtestChain replacement rules", () => {
  it("wants a replacement to beat the evicted fees in total, by its own size at 1 sat/vB", () => {
    const { chain, fundingTxids } = newChain();
    // A large, low-rate original: ten outputs, 2,000 sats of fee.
    const psbt = new Psbt({ network });
    psbt.addInput({ hash: fundingTxids[0]!, index: 0, witnessUtxo: { script: p2wpkh.output!, value } });
    for (let i = 0; i < 10; i++) psbt.addOutput({ address: payee, value: (value - 2_000n) / 10n });
    psbt.signAllInputs(key).finalizeAllInputs();
    const original = psbt.extractTransaction();
    chain.submit(original.toHex());

    // A small replacement pays a higher rate but less in total, then more but by less than its 110 vB.
    expect(reason(() => chain.submit(spend(chain, fundingTxids[0]!, "p2wpkh", 1_500n).toHex()))).toBe(
      `insufficient fee, rejecting replacement ${spend(chain, fundingTxids[0]!, "p2wpkh", 1_500n).getId()}, less fees than conflicting txs; 0.00001500 < 0.00002000`,
    );
    expect(reason(() => chain.submit(spend(chain, fundingTxids[0]!, "p2wpkh", 2_050n).toHex()))).toMatch(
      /not enough additional fees to relay; 0\.00000050 < 0\.00000110$/,
    );
    expect(chain.mempool().map((t) => t.txid)).toEqual([original.getId()]);
    const replacement = spend(chain, fundingTxids[0]!, "p2wpkh", 2_110n);
    expect(chain.submit(replacement.toHex())).toBe(replacement.getId());
    expect(chain.mempool().map((t) => t.txid)).toEqual([replacement.getId()]);
  });
});
