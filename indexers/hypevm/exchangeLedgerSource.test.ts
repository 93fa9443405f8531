import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devnetExchangeTokens, tokenSpec } from "../../devnet/hypevm/exchangeTokens.js";
import type { UserSignedAction } from "../../devnet/hypevm/parseExchangeRequest.js";
import { signUserSignedAction } from "../../devnet/hypevm/signUserSignedAction.js";
import { type DevnetExchange, startDevnetExchange } from "../../devnet/hypevm/startDevnetExchange.js";
import { NO_ORDER } from "../../schema/chainFacts.js";
import { PERPS_USDC_CURRENCY } from "../../src/chains/hypevm/hypevmFamily.js";
import { createExchangeApi } from "../../src/chains/hypevm/exchangeApi.js";
import { exchangeTransferId } from "../../src/chains/hypevm/exchangeTransferId.js";
import { exchangeLedgerSource } from "./exchangeLedgerSource.js";

const [usdc, hype] = devnetExchangeTokens as [(typeof devnetExchangeTokens)[0], (typeof devnetExchangeTokens)[0]];
const start = 1_800_000_000_000;

/** The source's reads, which are never `reorged` (the ledger's history does not change). */
const readPages =
  (source: ReturnType<typeof exchangeLedgerSource>) =>
  async (...args: Parameters<ReturnType<typeof exchangeLedgerSource>["read"]>) => {
    const page = await source.read(...args);
    if (!("facts" in page)) throw new Error("the exchange's ledger never reorgs");
    return page;
  };

describe("exchangeLedgerSource", () => {
  let exchange: DevnetExchange;
  let clock = start;
  beforeAll(async () => {
    exchange = await startDevnetExchange({ now: () => clock });
  });
  afterAll(() => exchange?.stop());

  const send = async (from: DevnetExchange["accounts"][0], action: Record<string, unknown>) => {
    const signed = await signUserSignedAction(from, {
      signatureChainId: "0x66eee",
      hyperliquidChain: exchange.network,
      ...action,
    } as UserSignedAction);
    expect(await exchange.ledger.submit(signed)).toEqual({ status: "ok", response: { type: "default" } });
  };
  const sendAsset = (destination: string, fields: Record<string, unknown>) => ({
    type: "sendAsset",
    destination: destination.toLowerCase(),
    sourceDex: "",
    destinationDex: "",
    token: tokenSpec(usdc),
    fromSubAccount: "",
    ...fields,
  });

  it("reads each transfer to the depository as a deposit, matched to its order by (signer, nonce)", async () => {
    const [alice, bob] = exchange.accounts as [DevnetExchange["accounts"][0], DevnetExchange["accounts"][0]];
    const depository = exchange.depository.address;
    const mapped = new Map([[`${alice.address.toLowerCase()}:${start + 1}`, `0x${"11".repeat(32)}`]]);
    const source = exchangeLedgerSource({
      api: createExchangeApi({ chainId: 1337, exchangeUrl: exchange.url }),
      depository,
      startTimeMs: start - 1,
      orderOf: async (sender, nonce) => mapped.get(`${sender.toLowerCase()}:${nonce}`),
    });
    const signal = new AbortController().signal;
    const read = readPages(source);

    await send(alice, sendAsset(depository, { amount: "12.5", nonce: start + 1 })); // perps USDC, mapped
    await send(
      bob,
      sendAsset(depository, {
        amount: "0.25",
        sourceDex: "spot",
        destinationDex: "spot",
        token: tokenSpec(hype),
        nonce: start + 2,
      }),
    );
    await send(bob, sendAsset(alice.address, { amount: "1", nonce: start + 3 })); // not to the depository
    await send(alice, { type: "usdSend", destination: depository.toLowerCase(), amount: "3", time: start + 4 }); // no nonce in the ledger
    const first = await read(undefined, signal);
    expect(first.facts.fills).toEqual([]);
    expect(first.facts.deposits.map((d) => [d.depositor, d.currency, d.amount, d.orderId])).toEqual([
      [alice.address.toLowerCase(), PERPS_USDC_CURRENCY, 1_250_000_000n, `0x${"11".repeat(32)}`],
      [bob.address.toLowerCase(), hype.tokenId, 25_000_000n, NO_ORDER],
      [alice.address.toLowerCase(), PERPS_USDC_CURRENCY, 300_000_000n, NO_ORDER],
    ]);
    const [fact] = first.facts.deposits;
    expect(fact).toMatchObject({ position: 0, blockNumber: BigInt(start / 1000), txFee: 0n });
    expect(exchange.ledger.tx(fact!.txHash)?.user).toBe(alice.address);
    expect(first.cursor).toMatchObject({ position: start / 1000 });
    expect(first.more).toBe(false);

    // Read again from the cursor: nothing new; then a transfer in the same millisecond, and one a second later.
    const again = await read(first.cursor, signal);
    expect(again.facts.deposits).toEqual([]);
    expect(again.cursor).toEqual(first.cursor);
    await send(bob, {
      type: "spotSend",
      destination: depository.toLowerCase(),
      token: tokenSpec(usdc),
      amount: "2",
      time: start + 5,
    });
    clock += 1_000;
    await send(exchange.depository, sendAsset(bob.address, { amount: "1", nonce: start + 6 })); // out: no deposit
    const next = await read(again.cursor, signal);
    expect(next.facts.deposits.map((d) => [d.depositor, d.currency, d.amount])).toEqual([
      [bob.address.toLowerCase(), usdc.tokenId, 200_000_000n],
    ]);
    expect(next.cursor).toMatchObject({ position: start / 1000 + 1 });
  });

  it("does not count the depository's own transfers out (refunds) as deposits", async () => {
    const depository = exchange.depository.address;
    const source = exchangeLedgerSource({
      api: createExchangeApi({ chainId: 1337, exchangeUrl: exchange.url }),
      depository,
      startTimeMs: 0,
      orderOf: async () => undefined,
    });
    await send(exchange.depository, sendAsset(exchange.accounts[2]!.address, { amount: "0.5", nonce: clock + 10 }));
    const page = await readPages(source)(undefined, new AbortController().signal);
    expect(page.facts.deposits.every((d) => d.depositor.toLowerCase() !== depository.toLowerCase())).toBe(true);
    expect(page.facts.deposits).toHaveLength(4);
  });

  it("reads the depository's transfers out that are stored refunds, by the exchange's hash or by their stored id, as their orders' withdrawals, no other", async () => {
    const depository = exchange.depository.address;
    const [, , carol, dave] = exchange.accounts as DevnetExchange["accounts"];
    const orderId = `0x${"33".repeat(32)}`;
    clock += 1_000;
    const from = clock;
    await send(exchange.depository, sendAsset(carol!.address, { amount: "0.75", nonce: clock + 1 })); // our refund
    const refundHash = exchange.ledger.updates(depository).at(-1)!.hash;
    // The depository's other transfer (same recipient and amount); a refund still stored under its (signer, nonce)
    // id, the exchange's hash not read yet; a deposit in.
    await send(exchange.depository, sendAsset(carol!.address, { amount: "0.75", nonce: clock + 2 }));
    const storedId = exchangeTransferId(depository, clock + 3);
    const unreadOrderId = `0x${"44".repeat(32)}`;
    await send(exchange.depository, sendAsset(dave!.address, { amount: "0.75", nonce: clock + 3 }));
    const unreadHash = exchange.ledger.updates(depository).at(-1)!.hash;
    await send(dave!, sendAsset(depository, { amount: "0.75", nonce: clock + 4 }));
    const asked: string[][] = [];
    const source = exchangeLedgerSource({
      api: createExchangeApi({ chainId: 1337, exchangeUrl: exchange.url }),
      depository,
      startTimeMs: from,
      orderOf: async () => undefined,
      refundOf: async (txHashes) => {
        asked.push([...txHashes]);
        return txHashes.includes(refundHash) ? orderId : txHashes.includes(storedId) ? unreadOrderId : undefined;
      },
    });
    const page = await readPages(source)(undefined, new AbortController().signal);
    const second = BigInt(Math.floor(clock / 1000));
    /** A refund of 0.75 perps USDC read from the ledger entry `hash`. */
    const withdrawal = (hash: string, refunded: string, recipient: string) => ({
      txHash: hash,
      position: 0,
      orderId: refunded,
      recipient: recipient.toLowerCase(),
      currency: PERPS_USDC_CURRENCY,
      amount: 75_000_000n,
      blockNumber: second,
      blockHash: hash,
      timestamp: second,
    });
    expect(page.facts.withdrawals).toEqual([
      withdrawal(refundHash, orderId, carol!.address),
      withdrawal(unreadHash, unreadOrderId, dave!.address),
    ]);
    // Only transfers out of the depository are looked up, once each, by hash and stored id; the deposit in is a deposit.
    expect(asked).toEqual([
      [refundHash, expect.any(String)],
      [expect.any(String), expect.any(String)],
      [unreadHash, storedId],
    ]);
    expect(page.facts.deposits.map((d) => d.depositor)).toEqual([dave!.address.toLowerCase()]);
  });
});

describe("exchangeLedgerSource with a solver", () => {
  let exchange: DevnetExchange;
  let clock = start;
  beforeAll(async () => {
    exchange = await startDevnetExchange({ now: () => clock });
  });
  afterAll(() => exchange?.stop());

  it("reads the solver's transfers that are stored fills as fill facts, and a deposit in the same millisecond once", async () => {
    const [alice, bob] = exchange.accounts as [DevnetExchange["accounts"][0], DevnetExchange["accounts"][0]];
    const depository = exchange.depository.address;
    const requestId = `0x${"22".repeat(32)}`;
    const source = exchangeLedgerSource({
      api: createExchangeApi({ chainId: 1337, exchangeUrl: exchange.url }),
      depository,
      solver: exchange.solver.address,
      startTimeMs: start - 1,
      orderOf: async () => undefined,
      fillOf: async (solver, nonce) =>
        solver === exchange.solver.address.toLowerCase() && nonce === BigInt(start + 1) ? requestId : undefined,
    });
    const submit = async (from: DevnetExchange["accounts"][0], destination: string, amount: string, nonce: number) => {
      const signed = await signUserSignedAction(from, {
        type: "sendAsset",
        signatureChainId: "0x66eee",
        hyperliquidChain: exchange.network,
        destination: destination.toLowerCase(),
        sourceDex: "",
        destinationDex: "",
        token: tokenSpec(usdc),
        amount,
        fromSubAccount: "",
        nonce,
      });
      expect(await exchange.ledger.submit(signed)).toEqual({ status: "ok", response: { type: "default" } });
    };
    await submit(exchange.solver, alice.address, "7.5", start + 1); // a stored fill
    await submit(exchange.solver, bob.address, "1", start + 2); // the solver's, but no fill of ours
    const signal = new AbortController().signal;
    const first = await source.read(undefined, signal);
    if (!("facts" in first)) throw new Error("never reorged");
    expect(first.facts.deposits).toEqual([]);
    expect(first.facts.fills).toMatchObject([
      { requestId, recipient: alice.address.toLowerCase(), currency: PERPS_USDC_CURRENCY, amount: 750_000_000n },
    ]);
    // A deposit lands in the millisecond of the cursor: read once, then nothing.
    await submit(bob, depository, "2", start + 3);
    const second = await source.read(first.cursor, signal);
    if (!("facts" in second)) throw new Error("never reorged");
    expect(second.facts.deposits.map((d) => d.amount)).toEqual([200_000_000n]);
    expect(second.facts.fills).toEqual([]);
    const third = await source.read(second.cursor, signal);
    if (!("facts" in third)) throw new Error("never reorged");
    expect(third.facts.deposits).toEqual([]);
    expect(third.cursor).toEqual(second.cursor);
  });
});
