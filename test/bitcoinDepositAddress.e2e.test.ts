import { zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { devnetBitcoinKey } from "../devnet/bitcoin/devnetBitcoinKey.js";
import { signPayment } from "../devnet/bitcoin/signPayment.js";
import { readOutboxAfter } from "../schema/statusEvents.js";
import { createApiKey } from "../src/apiKeys/createApiKey.js";
import { BITCOIN_NATIVE_CURRENCY } from "../src/chains/bitcoin/bitcoinFamily.js";
import { depositAddressKeys } from "../src/chains/bitcoin/depositAddressKeys.js";
import { createEvmChainClient } from "../src/chains/evm/evmChainClient.js";
import { toStatusUpdate } from "../src/events/statusUpdate.js";
import { pollStatus } from "./support/pollStatus.js";
import { postBitcoinQuote, postQuote } from "./support/postQuote.js";
import { refundChecks } from "./support/refundChecks.js";
import { devnetEsplora } from "./support/devnetEsplora.js";
import { type TestStack, startTestStack } from "./support/startTestStack.js";

// The fee the test wallets pay for a one-input, two-output payment (the devnet takes any fee).
const PAYMENT_FEE = 1_000n;

describe("Bitcoin deposit addresses, end to end", () => {
  let stack: TestStack;
  let apiKey: string;
  beforeAll(async () => {
    stack = await startTestStack({ bitcoin: true });
    apiKey = (await createApiKey(stack.pool, stack.serverKey, { name: "deposit addresses", elevated: true })).key;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const btc = () => stack.bitcoin!.devnet;
  const { esplora, holdings } = devnetEsplora(() => stack);
  const quote = (user: string, amount: bigint, extra: Record<string, unknown> = {}, key?: string) =>
    postBitcoinQuote(
      stack,
      user,
      amount,
      { recipient: stack.devnet.accounts[2].address, useDepositAddress: true, ...extra },
      key,
    );
  /** Any wallet paying the address: one of the payer's confirmed outputs, the change back, POST /tx. */
  const pay = async (payer: { address: string; wif: string }, to: string, amount: bigint) => {
    const [utxo] = (await esplora(`/address/${payer.address}/utxo`)).filter(
      (output: { status: { confirmed: boolean } }) => output.status.confirmed,
    );
    const raw = signPayment({
      network: btc().network,
      wif: payer.wif,
      inputs: [{ txid: utxo.txid, vout: utxo.vout, value: BigInt(utxo.value) }],
      outputs: [
        { address: to, value: amount },
        { address: payer.address, value: BigInt(utxo.value) - amount - PAYMENT_FEE },
      ],
    });
    const response = await fetch(`${btc().esploraUrl}/tx`, { method: "POST", body: raw });
    expect(response.status, await response.clone().text()).toBe(200);
    return response.text();
  };
  const listed = async (query: string) => {
    const response = await fetch(`${stack.api.url}/requests/v3?${query}`, { headers: { "x-api-key": apiKey } });
    const body = await response.json();
    expect(response.status, JSON.stringify(body)).toBe(200);
    return body.requests;
  };
  const requestCount = async () =>
    Number((await stack.pool.query("SELECT count(*) FROM crossfill.requests")).rows[0].count);

  it("pays a fresh address from any wallet: pending from the mempool, filled after a block, swept to the depository", async () => {
    const user = btc().accounts[0]!;
    const payer = btc().accounts[1]!;
    const recipient = stack.devnet.accounts[2].address;
    const depository = stack.bitcoin!.chain.depository;
    const evm = createEvmChainClient(stack.devnet.chains[0]).publicClient;
    // 0.01 BTC at $60,000 is $600: one block.
    const amount = 1_000_000n;
    const response = await quote(user.address, amount);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const [step] = response.body.steps;
    const { requestId, depositAddress } = step;
    // The account key's child 0/index: derivable by anyone holding the devnet's public account key.
    const index = (
      await stack.pool.query(
        "SELECT address_key::integer AS derivation_index FROM crossfill.deposit_addresses WHERE address = $1",
        [depositAddress],
      )
    ).rows[0].derivation_index;
    expect(depositAddressKeys(btc().depositAddressKey.xpub, "regtest").addressAt(index)).toBe(depositAddress);
    expect(depositAddress).toMatch(/^bcrt1q/);
    expect(step).toMatchObject({ id: "deposit", kind: "transaction" });
    expect(step.items[0].data).toEqual({
      to: depositAddress,
      value: amount.toString(),
      chainId: stack.bitcoin!.chain.id,
    });
    expect(step.items[0].data.psbt).toBeUndefined();
    // Another quote gets another address.
    const other = await quote(user.address, amount);
    expect(other.body.steps[0].depositAddress).not.toBe(depositAddress);

    const depositoryBefore = await holdings(depository);
    const payerBefore = await holdings(payer.address);
    const recipientBefore = await evm.getBalance({ address: recipient });
    const polling = pollStatus(stack.api.url, requestId, { timeoutMs: 60_000 });
    const txid = await pay(payer, depositAddress, amount);

    const pending = await pollStatus(stack.api.url, requestId, { until: ["pending"], timeoutMs: 15_000 });
    expect(pending.last.inTxHashes).toEqual([txid]);
    expect(await holdings(payer.address)).toBe(payerBefore - amount - PAYMENT_FEE);
    expect(await holdings(depositAddress)).toBe(amount);

    btc().mine(1);
    await polling;
    expect(await refundChecks(stack).events(requestId)).toEqual(["waiting", "pending", "submitted", "success"]);
    const expectedOut = BigInt(response.body.details.currencyOut.amount);
    expect(await evm.getBalance({ address: recipient })).toBe(recipientBefore + expectedOut);

    // The sweep follows the fill: stored, then broadcast; once mined the address is empty and the depository holds it.
    const sweepRow = async () =>
      (await stack.pool.query("SELECT * FROM crossfill.deposit_sweeps WHERE deposit_tx_hash = $1", [txid])).rows[0];
    await vi.waitFor(async () => expect((await sweepRow())?.tx_hash).toBeTruthy(), { timeout: 20_000, interval: 100 });
    const sweep = await sweepRow();
    expect(sweep).toMatchObject({ request_id: requestId, deposit_log_index: "0", skipped: null });
    expect(BigInt(sweep.amount) + BigInt(sweep.fee)).toBe(amount);
    await vi.waitFor(async () => expect((await esplora(`/tx/${sweep.tx_hash}`)).txid).toBe(sweep.tx_hash), {
      timeout: 10_000,
    });
    const sweepTx = await esplora(`/tx/${sweep.tx_hash}`);
    expect(sweepTx.vin.map((input: { txid: string; vout: number }) => [input.txid, input.vout])).toEqual([[txid, 0]]);
    expect(BigInt(sweepTx.fee)).toBe(BigInt(sweep.fee));
    btc().mine(1);
    expect(await holdings(depositAddress)).toBe(0n);
    expect(await holdings(depository)).toBe(depositoryBefore + amount - BigInt(sweep.fee));
    // The sweep, a spend of the deposit address paying the depository, is no deposit of anything.
    await vi.waitFor(async () => expect((await sweepRow()).confirmed_at).not.toBeNull(), {
      timeout: 30_000,
      interval: 200,
    });
    const sweepFacts = await stack.pool.query("SELECT * FROM crossfill.deposit_facts WHERE tx_hash = $1", [
      sweep.tx_hash,
    ]);
    expect(sweepFacts.rows).toEqual([]);

    // The records: v3, the depositAddress filter, the webhook/status body, GraphQL's explorer search.
    const expected = { address: depositAddress, depositor: payer.address, depositTxHash: txid };
    const [record] = await listed(`id=${requestId}`);
    expect(record.depositAddress).toEqual({ ...expected, type: "open", recoveryAddress: null });
    expect(record.supersededByRequestId).toBeNull();
    expect(record.features).toContain("deposit_address");
    expect((await listed(`depositAddress=${depositAddress}`)).map((r: { id: string }) => r.id)).toEqual([requestId]);
    const { events } = await readOutboxAfter(stack.pool, 0n, 10_000);
    const updates = events.filter((event) => event.requestId === requestId).map((e) => toStatusUpdate(e, 0));
    expect(updates.map((update) => update.body.data.status)).toEqual(["waiting", "pending", "submitted", "success"]);
    // Each body is built from the request as it stands when sent: read now, every one names the payment.
    for (const update of updates)
      expect(update.body.data.depositAddress).toEqual({ ...expected, depositAddressType: "open" });
    const graphql = await fetch(`${stack.api.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        query: `{ explorerRequests(term: "${depositAddress}") { id depositAddress { address type depositor depositTxHash } } }`,
      }),
    }).then((r) => r.json());
    expect(graphql.data.explorerRequests).toEqual([{ id: requestId, depositAddress: { ...expected, type: "open" } }]);
  }, 120_000);

  it("refuses strict without refundTo, a user without the balance, a non-Bitcoin origin; writes nothing", async () => {
    const before = await requestCount();
    const strict = await quote(btc().accounts[0]!.address, 1_000_000n, { strict: true });
    expect(strict.status).toBe(400);
    expect(strict.body).toMatchObject({ errorCode: "INVALID_INPUT", message: expect.stringMatching(/refundTo/) });
    const strictAlone = await quote(btc().accounts[0]!.address, 1_000_000n, {
      useDepositAddress: false,
      strict: true,
    });
    expect(strictAlone.status).toBe(400);
    const empty = await quote(devnetBitcoinKey("nobody").address, 1_000_000n);
    expect(empty.status).toBe(400);
    expect(empty.body.errorCode).toBe("INSUFFICIENT_FUNDS");
    const evmOrigin = await postQuote(stack.api.url, {
      user: stack.devnet.accounts[0].address,
      originChainId: stack.devnet.chains[0].id,
      destinationChainId: stack.devnet.chains[1].id,
      originCurrency: zeroAddress,
      destinationCurrency: zeroAddress,
      amount: "1000000000000000",
      tradeType: "EXACT_INPUT",
      useDepositAddress: true,
    });
    expect(evmOrigin.status).toBe(400);
    expect(evmOrigin.body.errorCode).toBe("UNSUPPORTED_ROUTE");
    expect(await requestCount()).toBe(before);
    // A price hands out no address.
    const addresses = async () =>
      Number((await stack.pool.query("SELECT count(*) FROM crossfill.deposit_addresses")).rows[0].count);
    const addressesBefore = await addresses();
    const price = await fetch(`${stack.api.url}/price`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        user: btc().accounts[0]!.address,
        recipient: stack.devnet.accounts[2].address,
        originChainId: stack.bitcoin!.chain.id,
        destinationChainId: stack.devnet.chains[0].id,
        originCurrency: BITCOIN_NATIVE_CURRENCY,
        destinationCurrency: zeroAddress,
        amount: "1000000",
        tradeType: "EXACT_INPUT",
        useDepositAddress: true,
      }),
    });
    expect(price.status).toBe(200);
    expect((await price.json()).details.currencyIn.amount).toBe("1000000");
    expect(await addresses()).toBe(addressesBefore);
  });

  it("refunds an underpaid strict deposit from the address to refundTo, less the refund's fee", async () => {
    const user = btc().accounts[2]!;
    const payer = btc().accounts[3]!;
    const refundTo = devnetBitcoinKey("strict refunds").address;
    const amount = 1_000_000n;
    const response = await quote(user.address, amount, { strict: true, refundTo });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const { requestId, depositAddress } = response.body.steps[0];
    const polling = pollStatus(stack.api.url, requestId, { until: ["refund"], timeoutMs: 60_000 });
    const paid = 600_000n;
    const txid = await pay(payer, depositAddress, paid);
    const refundRow = async () =>
      (await stack.pool.query("SELECT * FROM crossfill.refunds WHERE request_id = $1", [requestId])).rows[0];
    await vi.waitFor(async () => expect((await refundRow())?.status).toBe("sent"), { timeout: 20_000, interval: 100 });
    const refund = await refundRow();
    expect(refund).toMatchObject({ deposit_tx_hash: txid, recipient: refundTo });
    const gasCost = BigInt(refund.gas_cost);
    expect(BigInt(refund.amount)).toBe(paid - gasCost);
    const refundTx = await esplora(`/tx/${refund.tx_hash}`);
    expect(refundTx.vin.map((input: { txid: string }) => input.txid)).toEqual([txid]);
    expect(BigInt(refundTx.fee)).toBe(gasCost);
    btc().mine(1);
    await polling;
    expect(await refundChecks(stack).events(requestId)).toEqual(["waiting", "failure", "refund"]);
    expect(await holdings(refundTo)).toBe(paid - gasCost);
    expect(await holdings(depositAddress)).toBe(0n);
    const [record] = await listed(`id=${requestId}`);
    expect(record.status).toBe("refund");
    expect(record.data.failReason).toBe("DEPOSITED_AMOUNT_TOO_LOW_TO_FILL");
    expect(record.refundTo).toBe(refundTo);
    expect(record.depositAddress).toMatchObject({ address: depositAddress, type: "strict", depositTxHash: txid });
    // Refunded, never swept.
    const sweeps = await stack.pool.query("SELECT * FROM crossfill.deposit_sweeps WHERE deposit_tx_hash = $1", [txid]);
    expect(sweeps.rows).toEqual([]);
  }, 90_000);

  it("fills the quoted output of a strict EXACT_OUTPUT overpayment and returns the excess to refundTo in the sweep", async () => {
    const user = btc().accounts[2]!;
    const payer = btc().accounts[3]!;
    const refundTo = devnetBitcoinKey("strict excess").address;
    const recipient = stack.devnet.accounts[2].address;
    const evm = createEvmChainClient(stack.devnet.chains[0]).publicClient;
    const amountOut = 10n ** 17n;
    const response = await quote(user.address, amountOut, { strict: true, refundTo, tradeType: "EXACT_OUTPUT" });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const { requestId, depositAddress } = response.body.steps[0];
    const amountIn = BigInt(response.body.details.currencyIn.amount);
    const excess = 100_000n;
    const depository = stack.bitcoin!.chain.depository;
    const depositoryBefore = await holdings(depository);
    const recipientBefore = await evm.getBalance({ address: recipient });
    const polling = pollStatus(stack.api.url, requestId, { timeoutMs: 60_000 });
    const txid = await pay(payer, depositAddress, amountIn + excess);
    await pollStatus(stack.api.url, requestId, { until: ["pending"], timeoutMs: 15_000 });
    btc().mine(1);
    await polling;
    expect(await refundChecks(stack).events(requestId)).toEqual(["waiting", "pending", "submitted", "success"]);
    expect(await evm.getBalance({ address: recipient })).toBe(recipientBefore + amountOut);
    const sweepRow = async () =>
      (await stack.pool.query("SELECT * FROM crossfill.deposit_sweeps WHERE deposit_tx_hash = $1", [txid])).rows[0];
    await vi.waitFor(async () => expect((await sweepRow())?.tx_hash).toBeTruthy(), { timeout: 20_000, interval: 100 });
    const sweep = await sweepRow();
    expect(sweep.returned_to).toBe(refundTo);
    const returned = BigInt(sweep.returned_amount);
    const fee = BigInt(sweep.fee);
    // The depository keeps the quoted input less the sweep's fee; the excess, less its output's share, goes back.
    expect(BigInt(sweep.amount) + fee + returned).toBe(amountIn + excess);
    expect(returned).toBeGreaterThan(excess - fee);
    expect(returned).toBeLessThan(excess);
    btc().mine(1);
    expect(await holdings(refundTo)).toBe(returned);
    expect(await holdings(depository)).toBe(depositoryBefore + BigInt(sweep.amount));
    expect(BigInt(sweep.amount)).toBe(amountIn - (fee - (excess - returned)));
  }, 90_000);

  it("regenerates an expired unpaid address only for the same key's identical terms; anyone else gets a fresh one", async () => {
    const user = btc().accounts[4]!;
    const keyed = (key: string | undefined, amount: bigint, extra: Record<string, unknown> = {}) =>
      quote(user.address, amount, extra, key);
    const first = await keyed(apiKey, 500_000n);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const { requestId: oldId, depositAddress } = first.body.steps[0];
    // Not expired yet: a second quote gets its own address.
    const fresh = await keyed(apiKey, 500_000n);
    expect(fresh.body.steps[0].depositAddress).not.toBe(depositAddress);
    await stack.pool.query("UPDATE crossfill.requests SET deadline = now() - interval '1 minute' WHERE id = $1", [
      oldId,
    ]);
    // The attack: the same public fields (user, route, recipient, refund target), other terms. Whoever quotes them —
    // without a key, with another key, or with the same key but another amount, slippage or recipient — gets a fresh
    // address: the user's wallet, still paying the old one, pays none of their quotes.
    const otherKey = (await createApiKey(stack.pool, stack.serverKey, { name: "someone else" })).key;
    for (const [key, amount, extra] of [
      [undefined, 500_000n, {}],
      [undefined, 500_000n, { slippageTolerance: "5000" }],
      [otherKey, 500_000n, {}],
      [otherKey, 500_000n, { referrer: "attacker" }],
      [apiKey, 700_000n, {}],
      [apiKey, 500_000n, { slippageTolerance: "5000" }],
      [apiKey, 500_000n, { recipient: stack.devnet.accounts[3].address }],
    ] as const) {
      const other = await keyed(key, amount, extra);
      expect(other.status, JSON.stringify(other.body)).toBe(200);
      expect(
        other.body.steps[0].depositAddress,
        JSON.stringify({ key: !!key, amount: String(amount), extra }),
      ).not.toBe(depositAddress);
    }
    const [untouched] = await listed(`id=${oldId}`);
    expect(untouched.supersededByRequestId).toBeNull();

    // The same key's identical terms: the address is regenerated for the new quote.
    const again = await keyed(apiKey, 500_000n);
    expect(again.status).toBe(200);
    const { requestId: newId } = again.body.steps[0];
    expect(again.body.steps[0].depositAddress).toBe(depositAddress);
    const [old] = await listed(`id=${oldId}`);
    expect(old.supersededByRequestId).toBe(newId);
    const [current] = await listed(`id=${newId}`);
    expect(current.supersededByRequestId).toBeNull();
    expect(current.depositAddress.address).toBe(depositAddress);
    // The address lists both; a payment to it now pays the regenerated request.
    expect((await listed(`depositAddress=${depositAddress}`)).map((r: { id: string }) => r.id).sort()).toEqual(
      [oldId, newId].sort(),
    );
    const txid = await pay(btc().accounts[1]!, depositAddress, 500_000n);
    const pending = await pollStatus(stack.api.url, newId, { until: ["pending"], timeoutMs: 15_000 });
    expect(pending.last.inTxHashes).toEqual([txid]);
    expect((await pollStatus(stack.api.url, oldId, { until: ["waiting"] })).last.status).toBe("waiting");
    btc().mine(1);
    await pollStatus(stack.api.url, newId, { timeoutMs: 30_000 });
    expect(await refundChecks(stack).events(newId)).toEqual(["waiting", "pending", "submitted", "success"]);
  }, 90_000);
});
