import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devnetBitcoinKey } from "../../devnet/bitcoin/devnetBitcoinKey.js";
import { signPayment } from "../../devnet/bitcoin/signPayment.js";
import { type DevnetBitcoin, startDevnetBitcoin } from "../../devnet/bitcoin/startDevnetBitcoin.js";
import { MEMPOOL_BLOCK_HASH, NO_ORDER } from "../../schema/chainFacts.js";
import { findUnappliedDeposits } from "../../schema/unappliedFacts.js";
import { BITCOIN_NATIVE_CURRENCY } from "../../src/chains/bitcoin/bitcoinFamily.js";
import { insertTestRequest } from "../../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../../test/support/useMigratedDatabase.js";
import { startPoller } from "../poller/startPoller.js";
import { esploraSource } from "./esploraSource.js";

const CHAIN_ID = 8253038;
const FEE = 1_000n;

describe("esploraSource", () => {
  const db = useMigratedDatabase();
  let btc: DevnetBitcoin;
  let source: ReturnType<typeof esploraSource>;

  beforeAll(async () => {
    btc = await startDevnetBitcoin({ blockTimeMs: 0 });
    source = esploraSource({ esploraUrl: btc.esploraUrl, network: "regtest", depository: btc.depository.address });
  });
  afterAll(async () => {
    await btc?.stop();
  });

  const utxo = async (address: string) => {
    const [first] = (await (await fetch(`${btc.esploraUrl}/address/${address}/utxo`)).json()) as {
      txid: string;
      vout: number;
      value: number;
    }[];
    return { txid: first!.txid, vout: first!.vout, value: BigInt(first!.value) };
  };
  /** A poller over the source, from genesis, at a quick pace. */
  const startTestPoller = (chainId: number) =>
    startPoller({ pool: db.pool, source, chainId, startHeight: 0, pollEveryMs: 5, logger: pino({ level: "silent" }) });
  /** Runs a poller over the source until it has recorded the head, then stops it; returns that head. */
  const pollToHead = async (chainId: number) => {
    const head = await source.head();
    const poller = startTestPoller(chainId);
    while (poller.health().cursor !== head.height) await new Promise((resolve) => setTimeout(resolve, 5));
    await poller.stop();
    return head;
  };
  /** A wallet's payment to the depository (output 0), change back to the payer, and the memo when given. */
  const deposit = async (payer: { address: string; wif: string }, amount: bigint, memo?: string) => {
    const input = await utxo(payer.address);
    const hex = signPayment({
      network: btc.network,
      wif: payer.wif,
      inputs: [input],
      outputs: [
        { address: btc.depository.address, value: amount },
        ...(memo === undefined ? [] : [{ opReturn: Buffer.from(memo, "latin1") }]),
        { address: payer.address, value: input.value - amount - FEE },
      ],
    });
    const response = await fetch(`${btc.esploraUrl}/tx`, { method: "POST", body: hex });
    expect(response.status, await response.clone().text()).toBe(200);
    return response.text();
  };

  it("follows the chain: head, hashes by height, none above the head", async () => {
    const [hash] = btc.mine(1);
    expect(await source.head()).toEqual({ height: 1, hash });
    expect(await source.blockHash(1)).toBe(hash);
    expect(await source.blockHash(2)).toBeUndefined();
    const block = await source.block(1);
    expect(block).toMatchObject({ height: 1, hash, parentHash: await source.blockHash(0), deposits: [], fills: [] });
  });

  it("reads every payment to the depository, with its order from the OP_RETURN or none", async () => {
    const [payer, other, third] = btc.accounts;
    const orderId = `0x${"Ab".repeat(32)}`;
    const withMemo = await deposit(payer!, 50_000_000n, orderId);
    const withoutMemo = await deposit(other!, 20_000n);
    const malformed = await deposit(third!, 30_000n, `${orderId.slice(0, -1)}`);
    const [hash] = btc.mine(1);
    const block = await source.block((await source.head()).height);
    expect(block.hash).toBe(hash);
    const byTx = new Map(block.deposits.map((fact) => [fact.txHash, fact]));
    expect(byTx.get(withMemo)).toEqual({
      txHash: withMemo,
      position: 0,
      orderId: orderId.toLowerCase(),
      depositor: payer!.address,
      currency: BITCOIN_NATIVE_CURRENCY,
      amount: 50_000_000n,
      txFrom: payer!.address,
      txFee: FEE,
    });
    expect(byTx.get(withoutMemo)).toMatchObject({ orderId: NO_ORDER, depositor: other!.address, amount: 20_000n });
    expect(byTx.get(malformed)).toMatchObject({ orderId: NO_ORDER, depositor: third!.address, amount: 30_000n });
    expect(block.deposits).toHaveLength(3);
  });

  it("reads the deposits waiting in the mempool, and none once they are mined", async () => {
    const orderId = `0x${"Cd".repeat(32)}`;
    const waiting = await deposit(btc.accounts[3]!, 40_000n, orderId);
    expect(await source.mempoolDeposits!()).toEqual([
      expect.objectContaining({ txHash: waiting, position: 0, orderId: orderId.toLowerCase(), amount: 40_000n }),
    ]);
    btc.mine(1);
    expect(await source.mempoolDeposits!()).toEqual([]);
  });

  it("records a mempool sighting, and its block's fact in its place once mined", async () => {
    const chainId = 424242;
    const txid = await deposit(btc.accounts[4]!, 60_000n, `0x${"De".repeat(32)}`);
    const rows = () =>
      db.pool
        .query("SELECT block_hash, block_number::int FROM crossfill.deposit_facts WHERE tx_hash = $1", [txid])
        .then((result) => result.rows);
    const poller = startTestPoller(chainId);
    const until = async (expected: unknown[]) => {
      for (let tries = 0; JSON.stringify(await rows()) !== JSON.stringify(expected) && tries < 200; tries++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      expect(await rows()).toEqual(expected);
    };
    try {
      await until([{ block_hash: MEMPOOL_BLOCK_HASH, block_number: 0 }]);
      const [hash] = btc.mine(1);
      await until([{ block_hash: hash, block_number: (await source.head()).height }]);
    } finally {
      await poller.stop();
    }
  });

  it("reads the depository's spends as no deposit, and one naming an order as that order's refund", async () => {
    const orderId = `0x${"Ef".repeat(32)}`;
    const recipient = btc.accounts[0]!.address;
    const spend = async (memo?: string) => {
      const input = await utxo(btc.depository.address);
      const hex = signPayment({
        network: btc.network,
        wif: btc.depository.wif,
        inputs: [input],
        outputs: [
          { address: recipient, value: 10_000n },
          ...(memo === undefined ? [] : [{ opReturn: Buffer.from(memo, "latin1") }]),
          { address: btc.depository.address, value: input.value - 10_000n - FEE },
        ],
      });
      const response = await fetch(`${btc.esploraUrl}/tx`, { method: "POST", body: hex });
      expect(response.status, await response.clone().text()).toBe(200);
      btc.mine(1);
      return { txid: await response.text(), block: await source.block((await source.head()).height) };
    };
    const sweep = await spend();
    expect(sweep.block).toMatchObject({ deposits: [], withdrawals: [] });
    const refund = await spend(orderId);
    expect(refund.block.deposits).toEqual([]);
    expect(refund.block.withdrawals).toEqual([
      {
        txHash: refund.txid,
        position: 0,
        orderId: orderId.toLowerCase(),
        currency: BITCOIN_NATIVE_CURRENCY,
        recipient,
        amount: 10_000n,
      },
    ]);
  });

  it("throws what the Esplora refuses, for the loop to back off", async () => {
    await expect(source.block(10_000)).rejects.toThrow("esplora has no block at height 10000");
    const down = esploraSource({
      esploraUrl: "http://127.0.0.1:1",
      network: "regtest",
      depository: btc.depository.address,
    });
    await expect(down.head()).rejects.toThrow();
  });

  it("feeds the poller: a wallet's deposit becomes a fact reconcile matches to its request", async () => {
    await db.pool.query(
      `CREATE SCHEMA onchain_fixture;
       CREATE TABLE onchain_fixture.deposit (chain_id integer, order_id text, depositor text, currency text,
         amount numeric(78,0), tx_hash text, log_index integer, block_number numeric(78,0), block_hash text,
         timestamp numeric(78,0), tx_from text, tx_fee numeric(78,0));`,
    );
    const request = await insertTestRequest(db.pool, { originChainId: CHAIN_ID });
    const payer = btc.accounts[3]!;
    const txid = await deposit(payer, 12_345_678n, request.orderId);
    btc.mine(1);
    const head = await pollToHead(CHAIN_ID);

    const unapplied = await findUnappliedDeposits(db.pool, "onchain_fixture");
    expect(unapplied).toEqual([
      expect.objectContaining({
        requestId: request.id,
        chainId: CHAIN_ID,
        txHash: txid,
        position: 0,
        orderId: request.orderId,
        depositor: payer.address,
        currency: BITCOIN_NATIVE_CURRENCY,
        amount: 12_345_678n,
        blockNumber: BigInt(head.height),
        blockHash: head.hash,
      }),
    ]);
    // The payments without an order are recorded too, for a refund to find, and match no request.
    const { rows } = await db.pool.query(
      "SELECT count(*)::int AS unmatched FROM crossfill.deposit_facts WHERE chain_id = $1 AND order_id = $2",
      [CHAIN_ID, NO_ORDER],
    );
    expect(rows[0].unmatched).toBe(2);
  });

  it("takes a deposit back when its block is reorged out and the transaction dropped", async () => {
    const chainId = CHAIN_ID + 1;
    const txid = await deposit(btc.accounts[4]!, 40_000n, `0x${"cd".repeat(32)}`);
    btc.mine(1);
    await pollToHead(chainId);
    const facts = async () =>
      (await db.pool.query("SELECT tx_hash FROM crossfill.deposit_facts WHERE chain_id = $1", [chainId])).rows;
    expect(await facts()).toContainEqual({ tx_hash: txid });
    btc.reorg(1, { dropTxids: [txid] });
    await pollToHead(chainId);
    expect(await facts()).not.toContainEqual({ tx_hash: txid });
  });

  it("watches deposit addresses: their payments in the mempool and in blocks are their orders' deposits, sweeps none", async () => {
    const [payer] = btc.accounts;
    const depositAddress = devnetBitcoinKey("esploraSource deposit address").address;
    const idle = devnetBitcoinKey("esploraSource idle deposit address").address;
    const orderId = `0x${"cd".repeat(32)}`;
    const lookups: string[][] = [];
    const watching = esploraSource({
      esploraUrl: btc.esploraUrl,
      network: "regtest",
      depository: btc.depository.address,
      depositAddresses: {
        known: async (addresses) => {
          lookups.push([...addresses]);
          const all = new Map([
            [depositAddress, { orderId }],
            [idle, { orderId: `0x${"ef".repeat(32)}` }],
          ]);
          return new Map([...all].filter(([address]) => addresses.includes(address)));
        },
        watched: async () => [depositAddress, idle],
      },
    });
    const input = await utxo(payer!.address);
    const payment = signPayment({
      network: btc.network,
      wif: payer!.wif,
      inputs: [input],
      outputs: [
        { address: payer!.address, value: input.value - 70_000n - FEE },
        { address: depositAddress, value: 70_000n },
      ],
    });
    const txid = await (await fetch(`${btc.esploraUrl}/tx`, { method: "POST", body: payment })).text();
    const expected = {
      txHash: txid,
      position: 1,
      orderId,
      depositor: payer!.address,
      currency: BITCOIN_NATIVE_CURRENCY,
      amount: 70_000n,
      txFrom: payer!.address,
      txFee: FEE,
    };
    expect(await watching.mempoolDeposits!()).toEqual([expected]);
    // Without the lookup the payment is nobody's.
    expect(await source.mempoolDeposits!()).toEqual([]);
    btc.mine(1);
    const head = await watching.head();
    expect((await watching.block(head.height)).deposits).toEqual([expected]);
    expect(lookups.at(-1)).toContain(depositAddress);

    // The worker's sweep of that output to the depository: no deposit, no withdrawal.
    const key = devnetBitcoinKey("esploraSource deposit address");
    const sweep = signPayment({
      network: btc.network,
      wif: key.wif,
      inputs: [{ txid, vout: 1, value: 70_000n }],
      outputs: [{ address: btc.depository.address, value: 69_000n }],
    });
    expect((await fetch(`${btc.esploraUrl}/tx`, { method: "POST", body: sweep })).status).toBe(200);
    expect(await watching.mempoolDeposits!()).toEqual([]);
    btc.mine(1);
    const swept = await watching.block((await watching.head()).height);
    expect(swept.deposits).toEqual([]);
    expect(swept.withdrawals).toEqual([]);
  });
});
