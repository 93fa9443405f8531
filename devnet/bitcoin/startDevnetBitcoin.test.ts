import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Transaction } from "bitcoinjs-lib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { signPayment } from "./signPayment.js";
import {
  type DevnetBitcoin,
  devnetBitcoinAccountSats,
  devnetBitcoinSolverOutputSats,
  devnetBitcoinSolverOutputs,
  startDevnetBitcoin,
} from "./startDevnetBitcoin.js";

let btc: DevnetBitcoin;
beforeEach(async () => {
  btc = await startDevnetBitcoin({ blockTimeMs: 0 });
});
afterEach(async () => {
  await btc.stop();
});

const get = async (path: string) => {
  const res = await fetch(btc.esploraUrl + path);
  return { status: res.status, text: await res.text() };
};
const json = async <T = any>(path: string): Promise<T> => {
  const res = await get(path);
  expect(res.status, `${path}: ${res.text}`).toBe(200);
  return JSON.parse(res.text) as T;
};
const broadcast = async (hex: string) => {
  const res = await fetch(`${btc.esploraUrl}/tx`, { method: "POST", body: hex });
  return { status: res.status, text: await res.text() };
};
const mine = async (blocks: number) => {
  const res = await fetch(`${btc.esploraUrl}/devnet/mine`, { method: "POST", body: JSON.stringify({ blocks }) });
  return ((await res.json()) as { hashes: string[] }).hashes;
};
/** The genesis funding output of an address (the only one it has at start). */
const funding = async (address: string) => {
  const [utxo] = await json<{ txid: string; vout: number; value: number }[]>(`/address/${address}/utxo`);
  return { txid: utxo!.txid, vout: utxo!.vout, value: BigInt(utxo!.value) };
};
const pay = (
  from: number,
  outputs: Parameters<typeof signPayment>[0]["outputs"],
  inputs: Parameters<typeof signPayment>[0]["inputs"],
) => signPayment({ network: btc.network, wif: btc.accounts[from]!.wif, inputs, outputs });

describe("startDevnetBitcoin", () => {
  it("funds five bech32 regtest accounts and the solver deterministically", async () => {
    expect(btc.accounts).toHaveLength(5);
    for (const account of [...btc.accounts, btc.solver, btc.depository]) expect(account.address).toMatch(/^bcrt1q/);
    const again = await startDevnetBitcoin({ blockTimeMs: 0 });
    try {
      expect(again.accounts).toEqual(btc.accounts);
      expect(again.solver).toEqual(btc.solver);
    } finally {
      await again.stop();
    }
    expect((await funding(btc.accounts[0]!.address)).value).toBe(devnetBitcoinAccountSats);
    const solverUtxos = await json<{ value: number }[]>(`/address/${btc.solver.address}/utxo`);
    expect(solverUtxos.map((utxo) => BigInt(utxo.value))).toEqual(
      Array(devnetBitcoinSolverOutputs).fill(devnetBitcoinSolverOutputSats),
    );
    expect(await json(`/address/${btc.depository.address}/utxo`)).toEqual([]);
  });

  it("refuses a port already in use with a clear error", async () => {
    await expect(startDevnetBitcoin({ port: btc.port, blockTimeMs: 0 })).rejects.toThrow(
      new RegExp(`cannot start the devnet Esplora on port ${btc.port}: .*EADDRINUSE`),
    );
  });

  it("accepts a payment with change and an OP_RETURN, shows it in the mempool, then confirms it", async () => {
    const [alice, bob] = [btc.accounts[0]!, btc.accounts[1]!];
    const input = await funding(alice.address);
    const memo = new TextEncoder().encode(`0x${"ab".repeat(32)}`);
    const change = devnetBitcoinAccountSats - 100_000_000n - 1_000n;
    const hex = pay(
      0,
      [{ address: bob.address, value: 100_000_000n }, { opReturn: memo }, { address: alice.address, value: change }],
      [input],
    );
    const posted = await broadcast(hex);
    expect(posted).toEqual({ status: 200, text: Transaction.fromHex(hex).getId() });
    const txid = posted.text;

    const pending = await json(`/tx/${txid}`);
    expect(pending).toMatchObject({ txid, version: 2, locktime: 0, fee: 1000, status: { confirmed: false } });
    expect(pending.vin[0]).toMatchObject({
      txid: input.txid,
      vout: 0,
      is_coinbase: false,
      scriptsig: "",
      sequence: 0xfffffffd,
      prevout: { scriptpubkey_type: "v0_p2wpkh", scriptpubkey_address: alice.address, value: 1_000_000_000 },
    });
    expect(pending.vin[0].witness).toHaveLength(2);
    expect(pending.vout[1]).toEqual({
      scriptpubkey: `6a42${Buffer.from(memo).toString("hex")}`,
      scriptpubkey_asm: `OP_RETURN OP_PUSHBYTES_66 ${Buffer.from(memo).toString("hex")}`,
      scriptpubkey_type: "op_return",
      value: 0,
    });
    expect(pending.weight).toBe(Transaction.fromHex(hex).weight());
    expect(await json(`/tx/${txid}/status`)).toEqual({ confirmed: false });
    expect((await json(`/address/${bob.address}/txs/mempool`)).map((t: any) => t.txid)).toEqual([txid]);
    expect((await json(`/address/${alice.address}/txs`)).map((t: any) => t.txid)).toEqual([txid, input.txid]);
    expect(await json(`/tx/${input.txid}/outspend/0`)).toEqual({
      spent: true,
      txid,
      vin: 0,
      status: { confirmed: false },
    });
    expect(await json(`/address/${alice.address}/utxo`)).toEqual([
      { txid, vout: 2, status: { confirmed: false }, value: Number(change) },
    ]);
    expect(await json(`/address/${alice.address}`)).toEqual({
      address: alice.address,
      chain_stats: { funded_txo_count: 1, funded_txo_sum: 1e9, spent_txo_count: 0, spent_txo_sum: 0, tx_count: 1 },
      mempool_stats: {
        funded_txo_count: 1,
        funded_txo_sum: Number(change),
        spent_txo_count: 1,
        spent_txo_sum: 1e9,
        tx_count: 1,
      },
    });

    const [hash] = await mine(1);
    const block = await json(`/block/${hash}`);
    const status = { confirmed: true, block_height: 1, block_hash: hash, block_time: block.timestamp };
    expect(await json(`/tx/${txid}/status`)).toEqual(status);
    expect((await json(`/tx/${txid}`)).status).toEqual(status);
    expect(await get(`/tx/${txid}/hex`)).toEqual({ status: 200, text: hex });
    expect(block).toMatchObject({ id: hash, height: 1, tx_count: 2, version: 0x20000000, bits: 0x207fffff });
    expect(block.previousblockhash).toBe((await get("/block-height/0")).text);
    const txids = await json<string[]>(`/block/${hash}/txids`);
    expect(txids[1]).toBe(txid);
    // The miner's coinbase: the regtest subsidy plus the one fee in the block.
    const coinbase = await json(`/tx/${txids[0]}`);
    expect(coinbase.vin).toEqual([
      expect.objectContaining({ txid: "0".repeat(64), vout: 0xffffffff, prevout: null, is_coinbase: true }),
    ]);
    expect(coinbase.fee).toBe(0);
    expect(coinbase.vout[0]).toMatchObject({
      scriptpubkey_address: btc.miner.address,
      value: 5_000_001_000,
    });
    expect(await get("/blocks/tip/height")).toEqual({ status: 200, text: "1" });
    expect(await get("/blocks/tip/hash")).toEqual({ status: 200, text: hash });
    expect(await get("/block-height/1")).toEqual({ status: 200, text: hash });
    expect(await json(`/block/${hash}/status`)).toEqual({ in_best_chain: true, height: 1, next_best: null });
    expect(await json(`/block/${block.previousblockhash}/status`)).toEqual({
      in_best_chain: true,
      height: 0,
      next_best: hash,
    });
    expect(await json(`/address/${bob.address}`)).toMatchObject({
      chain_stats: { funded_txo_count: 2, funded_txo_sum: 1_100_000_000, spent_txo_count: 0, tx_count: 2 },
      mempool_stats: { funded_txo_count: 0, funded_txo_sum: 0, tx_count: 0 },
    });
    const aliceStats = (await json(`/address/${alice.address}`)).chain_stats;
    expect(aliceStats.funded_txo_sum - aliceStats.spent_txo_sum).toBe(Number(change));
    expect(await json(`/address/${alice.address}/txs/chain/${txid}`)).toHaveLength(1);
    expect(await json(`/address/${alice.address}/txs/mempool`)).toEqual([]);
  });

  describe("refuses like bitcoind, changing nothing", () => {
    const refused = async (hex: string, message: RegExp) => {
      const before = [await get("/blocks/tip/hash"), await json(`/address/${btc.accounts[0]!.address}`)];
      const mempoolBefore = btc.chain.mempool().map((t) => t.txid);
      const res = await broadcast(hex);
      expect(res.status).toBe(400);
      expect(res.text).toMatch(/^sendrawtransaction RPC error: \{"code":-2\d,"message":".*"\}$/);
      expect(JSON.parse(res.text.slice("sendrawtransaction RPC error: ".length)).message).toMatch(message);
      expect([await get("/blocks/tip/hash"), await json(`/address/${btc.accounts[0]!.address}`)]).toEqual(before);
      expect(btc.chain.mempool().map((t) => t.txid)).toEqual(mempoolBefore);
    };
    const to = () => btc.accounts[1]!.address;

    it("an unknown input", async () => {
      const input = { txid: "11".repeat(32), vout: 0, value: 100_000n };
      await refused(pay(0, [{ address: to(), value: 50_000n }], [input]), /^bad-txns-inputs-missingorspent$/);
    });

    it("an input spent in a block", async () => {
      const input = await funding(btc.accounts[0]!.address);
      expect((await broadcast(pay(0, [{ address: to(), value: 500_000_000n }], [input]))).status).toBe(200);
      await mine(1);
      await refused(pay(0, [{ address: to(), value: 400_000_000n }], [input]), /^bad-txns-inputs-missingorspent$/);
    });

    it("a bad signature (an output changed after signing)", async () => {
      const tx = Transaction.fromHex(
        pay(0, [{ address: to(), value: 50_000n }], [await funding(btc.accounts[0]!.address)]),
      );
      tx.outs[0]!.value += 1n;
      await refused(tx.toHex(), /^mandatory-script-verify-flag-failed \(Signature must be zero/);
    });

    it("a signature over a wrong witnessUtxo value", async () => {
      const input = await funding(btc.accounts[0]!.address);
      const hex = pay(0, [{ address: to(), value: 50_000n }], [{ ...input, value: input.value - 1n }]);
      await refused(hex, /^mandatory-script-verify-flag-failed/);
    });

    it("outputs above inputs", async () => {
      const input = await funding(btc.accounts[0]!.address);
      const hex = pay(0, [{ address: to(), value: input.value + 1n }], [{ ...input, value: input.value + 10_000n }]);
      await refused(hex, /^bad-txns-in-belowout, value in \(10\.00000000\) < value out \(10\.00000001\)$/);
    });

    it("a dust output", async () => {
      const hex = pay(0, [{ address: to(), value: 293n }], [await funding(btc.accounts[0]!.address)]);
      await refused(hex, /^dust$/);
    });

    it("an OP_RETURN above 83 bytes", async () => {
      const input = await funding(btc.accounts[0]!.address);
      const hex = pay(0, [{ opReturn: new Uint8Array(81) }, { address: to(), value: input.value - 1000n }], [input]);
      await refused(hex, /^scriptpubkey$/);
    });

    it("a fee below the 1 sat/vB relay minimum", async () => {
      const input = await funding(btc.accounts[0]!.address);
      const hex = pay(0, [{ address: to(), value: input.value - 100n }], [input]);
      await refused(hex, /^min relay fee not met, 100 < 110$/);
    });

    it("a double spend that does not pay more, and a replacement paying less", async () => {
      const input = await funding(btc.accounts[0]!.address);
      expect((await broadcast(pay(0, [{ address: to(), value: input.value - 1000n }], [input]))).status).toBe(200);
      const same = pay(0, [{ address: btc.accounts[2]!.address, value: input.value - 1000n }], [input]);
      await refused(same, /^insufficient fee, rejecting replacement [0-9a-f]{64}; new feerate/);
      const less = pay(0, [{ address: to(), value: input.value - 500n }], [input]);
      await refused(less, /^insufficient fee, rejecting replacement/);
    });

    it("garbage", async () => {
      await refused("00", /^TX decode failed/);
      await refused("not hex", /^TX decode failed/);
    });
  });

  it("lets a replacement paying more evict the original and its descendants", async () => {
    const [alice, bob] = [btc.accounts[0]!, btc.accounts[1]!];
    const input = await funding(alice.address);
    const original = (await broadcast(pay(0, [{ address: bob.address, value: input.value - 1000n }], [input]))).text;
    const child = (
      await broadcast(
        pay(
          1,
          [{ address: alice.address, value: input.value - 2000n }],
          [{ txid: original, vout: 0, value: input.value - 1000n }],
        ),
      )
    ).text;
    expect(btc.chain.mempool().map((t) => t.txid)).toEqual([original, child]);
    // Must beat the sum of the fees it evicts (2000) by its own size at 1 sat/vB.
    const replacement = await broadcast(pay(0, [{ address: bob.address, value: input.value - 2200n }], [input]));
    expect(replacement.status).toBe(200);
    expect((await get(`/tx/${original}`)).status).toBe(404);
    expect((await get(`/tx/${child}`)).status).toBe(404);
    expect(await json(`/tx/${input.txid}/outspend/0`)).toMatchObject({ spent: true, txid: replacement.text });
    await mine(1);
    expect((await json(`/tx/${replacement.text}/status`)).confirmed).toBe(true);
  });

  it("reorgs: a confirmed transaction goes back to the mempool, a dropped one disappears", async () => {
    const input0 = await funding(btc.accounts[0]!.address);
    const input1 = await funding(btc.accounts[1]!.address);
    const kept = (await broadcast(pay(0, [{ address: btc.depository.address, value: 10_000n }], [input0]))).text;
    const dropped = (await broadcast(pay(1, [{ address: btc.depository.address, value: 20_000n }], [input1]))).text;
    const [orphan] = await mine(1);
    expect((await json(`/tx/${kept}/status`)).confirmed).toBe(true);

    const res = await fetch(`${btc.esploraUrl}/devnet/reorg`, {
      method: "POST",
      body: JSON.stringify({ depth: 1, dropTxids: [dropped] }),
    });
    const { hashes } = (await res.json()) as { hashes: string[] };
    expect(hashes).toHaveLength(2);
    expect(await get("/blocks/tip/height")).toEqual({ status: 200, text: "2" });
    expect(await get("/block-height/1")).toEqual({ status: 200, text: hashes[0] });
    expect(await json(`/tx/${kept}/status`)).toEqual({ confirmed: false });
    expect((await get(`/tx/${dropped}/status`)).status).toBe(404);
    expect(await json(`/block/${orphan}/status`)).toEqual({ in_best_chain: false });
    expect((await json(`/block/${orphan}`)).height).toBe(1);
    expect(await json(`/address/${btc.depository.address}/utxo`)).toEqual([
      { txid: kept, vout: 0, status: { confirmed: false }, value: 10_000 },
    ]);
    expect(await json(`/tx/${input1.txid}/outspend/0`)).toEqual({ spent: false });
    // The in-process control does the same.
    const [again] = btc.mine(1);
    expect(await json(`/tx/${kept}/status`)).toMatchObject({ confirmed: true, block_hash: again });
    btc.reorg(2);
    expect(await json(`/tx/${kept}/status`)).toEqual({ confirmed: false });
  });

  it("answers fee estimates for Esplora's targets, never below 1 sat/vB", async () => {
    const estimates = await json<Record<string, number>>("/fee-estimates");
    expect(Object.keys(estimates).map(Number)).toEqual([
      ...Array.from({ length: 25 }, (_, i) => i + 1),
      144,
      504,
      1008,
    ]);
    for (const rate of Object.values(estimates)) expect(rate).toBeGreaterThanOrEqual(1);
  });

  it("answers 404 for unknown ids and 400 for malformed ones", async () => {
    const zeros = "0".repeat(64);
    expect(await get(`/tx/${zeros}`)).toEqual({ status: 404, text: "Transaction not found" });
    expect((await get(`/tx/${zeros}/status`)).status).toBe(404);
    expect((await get(`/tx/${zeros}/hex`)).status).toBe(404);
    expect((await get(`/tx/${zeros}/outspend/0`)).status).toBe(404);
    expect(await get(`/block/${zeros}`)).toEqual({ status: 404, text: "Block not found" });
    expect((await get(`/block/${zeros}/txids`)).status).toBe(404);
    expect((await get("/block-height/99")).status).toBe(404);
    expect((await get("/tx/xyz")).status).toBe(400);
    expect((await get("/tx/xyz/status")).status).toBe(400);
    expect((await get("/block/xyz")).status).toBe(400);
    expect((await get("/block/xyz/status")).status).toBe(400);
    expect((await get("/address/nope/utxo")).status).toBe(400);
    // A mainnet address is not a regtest one.
    expect((await get("/address/bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4")).status).toBe(400);
  });
});

describe("startDevnetBitcoin's timer and stop()", () => {
  it("mines on its timer, and stop() leaves nothing that keeps the process alive", async () => {
    const dir = mkdtempSync(join(tmpdir(), "devnet-bitcoin-"));
    const script = join(dir, "run.mts");
    const module = new URL("./startDevnetBitcoin.ts", import.meta.url).pathname;
    writeFileSync(
      script,
      `import { startDevnetBitcoin } from ${JSON.stringify(module)};
const btc = await startDevnetBitcoin({ blockTimeMs: 50 });
const deadline = Date.now() + 20_000;
let height = 0;
while (height < 2 && Date.now() < deadline) {
  height = Number(await (await fetch(btc.esploraUrl + "/blocks/tip/height")).text());
  await new Promise((r) => setTimeout(r, 50));
}
await btc.stop();
console.log("height", height);
`,
    );
    try {
      const child = spawn(process.execPath, ["--import", "tsx", script], { stdio: ["ignore", "pipe", "inherit"] });
      let out = "";
      child.stdout.on("data", (chunk) => (out += chunk));
      const code = await new Promise<number | null>((resolve) => {
        const timer = setTimeout(() => child.kill("SIGKILL"), 45_000);
        child.once("exit", (c) => {
          clearTimeout(timer);
          resolve(c);
        });
      });
      expect(code).toBe(0);
      expect(Number(out.match(/height (\d+)/)?.[1])).toBeGreaterThanOrEqual(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
