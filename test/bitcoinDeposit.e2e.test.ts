import { payments } from "bitcoinjs-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devnetBitcoinKey } from "../devnet/bitcoin/devnetBitcoinKey.js";
import { ecPair } from "../devnet/bitcoin/ecPair.js";
import { signPayment } from "../devnet/bitcoin/signPayment.js";
import { createApiKey } from "../src/apiKeys/createApiKey.js";
import { BITCOIN_NATIVE_CURRENCY } from "../src/chains/bitcoin/bitcoinFamily.js";
import { createEvmChainClient } from "../src/chains/evm/evmChainClient.js";
import { devnetEsplora } from "./support/devnetEsplora.js";
import { pollStatus } from "./support/pollStatus.js";
import { postBitcoinQuote } from "./support/postQuote.js";
import { type TestStack, startTestStack } from "./support/startTestStack.js";
import { broadcastPsbt } from "./support/broadcastPsbt.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Bitcoin's own checks; what every origin family does is tested over each: a deposit reorged out before it is final
// (test/depositReorged.e2e.test.ts), a refund on the solver's refusal and ORDER_EXPIRED (failedDepositRefunded.e2e).
describe("Bitcoin → EVM, end to end", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ bitcoin: true });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const btc = () => stack.bitcoin!.devnet;
  const { esplora, spendable: balance } = devnetEsplora(() => stack);
  const quote = (user: string, amount: bigint | string, extra: Record<string, unknown> = {}) =>
    postBitcoinQuote(stack, user, amount, { recipient: stack.devnet.accounts[1].address, ...extra });
  const signAndBroadcast = (psbtHex: string, wif: string) => broadcastPsbt(btc(), psbtHex, wif);
  const fillAttempts = async (requestId: string) =>
    Number(
      (await stack.pool.query("SELECT count(*) FROM crossfill.fill_attempts WHERE request_id = $1", [requestId]))
        .rows[0].count,
    );

  /**
   * Deposits for a request the solver refuses (`debug-force-refund`), mines it, and waits for its refund to be sent
   * and known to the node (it is stored as sent before it is broadcast); the refund row, and the deposit's txid and fee.
   */
  async function depositRefused(response: { body: any }, user: { wif: string }) {
    const { requestId } = response.body.steps[0];
    const polling = pollStatus(stack.api.url, requestId, { until: ["refund"], timeoutMs: 30_000 });
    const { txid, fee } = await signAndBroadcast(response.body.steps[0].items[0].data.psbt, user.wif);
    await pollStatus(stack.api.url, requestId, { until: ["pending"], timeoutMs: 15_000 });
    btc().mine(1);
    const refundRow = async () =>
      (await stack.pool.query("SELECT * FROM crossfill.refunds WHERE request_id = $1", [requestId])).rows[0];
    for (let tries = 0; (await refundRow())?.status !== "sent" && tries < 150; tries++) await sleep(100);
    const refund = await refundRow();
    const known = async () => (await fetch(`${btc().esploraUrl}/tx/${refund?.tx_hash}`)).status === 200;
    for (let tries = 0; refund?.tx_hash && !(await known()) && tries < 150; tries++) await sleep(100);
    return { refund, txid, fee, polling };
  }

  it("refuses what cannot be deposited: INSUFFICIENT_FUNDS, dust, addresses of another network or case", async () => {
    const user = btc().accounts[1]!;
    const tooMuch = await quote(user.address, 2_000_000_000n);
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body).toMatchObject({ errorCode: "INSUFFICIENT_FUNDS" });
    expect(tooMuch.body.message).toMatch(/holds 1000000000 satoshis/);
    const dust = await quote(user.address, 200n);
    expect(dust.status).toBe(400);
    expect(dust.body.errorCode).toBe("AMOUNT_TOO_LOW");
    for (const wrong of [
      "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
      user.address.replace("bcrt1q", "bcrt1Q"),
      BITCOIN_NATIVE_CURRENCY,
    ]) {
      const refused = await quote(wrong, 1_000_000n);
      expect(refused.status, wrong).toBe(400);
      expect(refused.body.errorCode).toBe("INVALID_ADDRESS");
    }
  });

  it("fails a mempool deposit replaced (RBF) before it confirms: DOUBLE_SPEND, no fill", async () => {
    const user = btc().accounts[2]!;
    const recipient = stack.devnet.accounts[1].address;
    const evm = createEvmChainClient(stack.devnet.chains[0]).publicClient;
    const response = await quote(user.address, 1_000_000n);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const { requestId } = response.body.steps[0];
    const recipientBefore = await evm.getBalance({ address: recipient });
    const { txid, inputs } = await signAndBroadcast(response.body.steps[0].items[0].data.psbt, user.wif);
    await pollStatus(stack.api.url, requestId, { until: ["pending"], timeoutMs: 15_000 });

    // The user spends the same output back to itself with a higher fee: the deposit leaves the mempool.
    const [spent] = inputs;
    const utxo = (await esplora(`/tx/${txid}`)).vin[0].prevout.value as number;
    const replacement = signPayment({
      network: btc().network,
      wif: user.wif,
      inputs: [{ txid: Buffer.from(spent!.hash).reverse().toString("hex"), vout: spent!.index, value: BigInt(utxo) }],
      outputs: [{ address: user.address, value: BigInt(utxo) - 10_000n }],
    });
    const replaced = await fetch(`${btc().esploraUrl}/tx`, { method: "POST", body: replacement });
    expect(replaced.status, await replaced.clone().text()).toBe(200);

    const { statuses, last } = await pollStatus(stack.api.url, requestId, { timeoutMs: 15_000 });
    expect(statuses).toEqual(["pending", "failure"]);
    expect(last.failReason).toBe("DOUBLE_SPEND");
    btc().mine(1);
    await sleep(1_500);
    expect(await fillAttempts(requestId)).toBe(0);
    expect(await evm.getBalance({ address: recipient })).toBe(recipientBefore);
    const key = await createApiKey(stack.pool, stack.serverKey, { name: "rbf" });
    const listed = await fetch(`${stack.api.url}/requests/v3?id=${requestId}`, {
      headers: { "x-api-key": key.key },
    }).then((r) => r.json());
    expect(listed.requests[0]).toMatchObject({ status: "failure", data: { failReason: "DOUBLE_SPEND" } });
    expect(listed.requests[0].data.inTxs).toMatchObject([
      { txHash: txid, status: "failure", metadata: { reorg: { failReason: "DOUBLE_SPEND", source: "fill-check" } } },
    ]);
  }, 60_000);

  /** Quotes $600 of BTC (one confirmation), pays it and waits for `pending` from the mempool: the quote's step. */
  const payToMempool = async () => {
    const user = btc().accounts[0]!;
    const [step] = (await quote(user.address, 1_000_000n)).body.steps;
    await signAndBroadcast(step.items[0].data.psbt, user.wif);
    await pollStatus(stack.api.url, step.requestId, { until: ["pending"], timeoutMs: 15_000 });
    return step;
  };

  // The order's deadline judges when a deposit was first seen (mempool or block), not when it had its confirmations.
  it("fills a deposit seen in the mempool before the deadline and confirmed 20 minutes after it", async () => {
    const step = await payToMempool();
    // Bitcoin's 10-minute blocks for this test (the worker shares this chain object): the fill allows an hour for
    // the deposit's block. Set before the deadline moves, so no fill run sees the past deadline with 1 s blocks.
    const chain = stack.bitcoin!.chain;
    chain.blockTimeSeconds = 600;
    try {
      // Seen before the deadline; its block comes 20 minutes after it (now). Mining it runs the fill at once.
      await stack.pool.query("UPDATE crossfill.requests SET deadline = now() - interval '20 minutes' WHERE id = $1", [
        step.requestId,
      ]);
      await sleep(1_500);
      btc().mine(1);
      const { last } = await pollStatus(stack.api.url, step.requestId, { timeoutMs: 30_000 });
      expect(last).toMatchObject({ status: "success" });
    } finally {
      chain.blockTimeSeconds = 1;
    }
  }, 60_000);

  it("refunds a deposit not confirmed within the chain's allowance after the deadline (DEPOSIT_CONFIRMATION_TIMEOUT)", async () => {
    const step = await payToMempool();
    // Seen in time, but still unmined long after the deadline (1 s blocks here: six of them, plus the fill window):
    // a payer must not hold the quoted price open by paying a fee too low to be mined.
    await stack.pool.query("UPDATE crossfill.requests SET deadline = now() - interval '11 minutes' WHERE id = $1", [
      step.requestId,
    ]);
    const { last } = await pollStatus(stack.api.url, step.requestId, {
      until: ["failure", "refund"],
      timeoutMs: 30_000,
    });
    expect(last).toMatchObject({ failReason: "DEPOSIT_CONFIRMATION_TIMEOUT" });
    btc().mine(1);
    await sleep(2_000);
    expect(await fillAttempts(step.requestId)).toBe(0);
  }, 60_000);

  it("refunds to a legacy base58 refundTo (P2PKH, P2SH) at that exact address, case and all", async () => {
    const user = btc().accounts[4]!;
    const { network } = btc();
    const pubkey = (name: string) => ecPair.fromWIF(devnetBitcoinKey(name).wif, network).publicKey;
    const p2pkh = payments.p2pkh({ pubkey: pubkey("legacy refund"), network }).address!;
    const p2sh = payments.p2sh({
      redeem: payments.p2wpkh({ pubkey: pubkey("nested refund"), network }),
      network,
    }).address!;
    // Base58 carries its checksum in its case: lower-cased, it is no address at all.
    expect(p2pkh).not.toBe(p2pkh.toLowerCase());
    for (const refundTo of [p2pkh, p2sh]) {
      const response = await quote(user.address, 1_000_000n, { referrer: "debug-force-refund", refundTo });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      const { refund, polling } = await depositRefused(response, user);
      expect(refund, refundTo).toMatchObject({ status: "sent", recipient: refundTo });
      const refundTx = await esplora(`/tx/${refund.tx_hash}`);
      expect(refundTx.vout[0]).toMatchObject({ scriptpubkey_address: refundTo, value: Number(refund.amount) });
      btc().mine(1);
      const { statuses } = await polling;
      expect(statuses.at(-1)).toBe("refund");
      expect(await balance(refundTo)).toBe(BigInt(refund.amount));
    }
  }, 90_000);
});
