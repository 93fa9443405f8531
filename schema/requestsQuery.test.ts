import { randomBytes } from "node:crypto";
import { Keypair } from "@solana/web3.js";
import bs58 from "bs58";
import { zeroAddress } from "viem";
import { generatePrivateKey, privateKeyToAddress } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { parseRequestsV3Query } from "../src/gateway/rest/parseRequestsQuery.js";
import { parseRequestsV2Query } from "../src/gateway/rest/parseRequestsV2Query.js";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { type RequestFilter, emptyFilter } from "./requestFilter.js";
import { queueRefund } from "./refunds.js";
import { insertChildRequest } from "./requests.js";
import { countRequests } from "./countRequests.js";
import { explainRequestPage, listRequestViews, requestViewsByIds } from "./requestsQuery.js";
import { seedBenchRequests } from "./seedBenchRequests.js";

describe("request listings and child requests", () => {
  const database = useMigratedDatabase();
  const ids = async (filter: RequestFilter) =>
    (await listRequestViews(database.pool, { filter, sortBy: "createdAt", sortDirection: "asc", limit: 50 })).map(
      (view) => view.id,
    );
  const byId = (id: string, includeChildRequests: boolean): RequestFilter => ({
    ...emptyFilter(),
    conditions: [{ field: "id", negate: false, values: [id] }],
    includeChildRequests,
  });

  it("leaves children out unless asked for; with includeChildRequests an id also lists its children", async () => {
    const parent = await insertTestRequest(database.pool);
    const childId = `0x${randomBytes(32).toString("hex")}`;
    expect(
      await insertChildRequest(database.pool, { id: childId, parentId: parent.id, depositor: "0xabc", amountIn: 5n }),
    ).toBe(true);
    expect(
      await insertChildRequest(database.pool, { id: childId, parentId: parent.id, depositor: "0xabc", amountIn: 5n }),
    ).toBe(false);

    expect(await ids(byId(parent.id, false))).toEqual([parent.id]);
    expect(await ids(byId(parent.id, true))).toEqual([parent.id, childId]);
    expect(await ids(byId(childId, false))).toEqual([]);
    expect(await ids(byId(childId, true))).toEqual([childId]);
    const user = { ...emptyFilter(), conditions: [{ field: "user" as const, negate: false, values: ["0xabc"] }] };
    expect(await ids(user)).toEqual([]);
    expect(await ids({ ...user, includeChildRequests: true })).toEqual([childId]);
    expect(await countRequests(database.pool, byId(parent.id, true))).toBe(2);
    expect(await countRequests(database.pool, byId(parent.id, false))).toBe(1);

    // GET /requests/v2 takes the same flag onto the same filter.
    const v2 = parseRequestsV2Query({ id: [parent.id], includeChildRequests: ["true"] });
    expect(v2.filter.includeChildRequests).toBe(true);
    expect(await ids(v2.filter)).toEqual([parent.id, childId]);
  });

  it("views by id show a child request as any other, and only the ids asked for", async () => {
    const parent = await insertTestRequest(database.pool);
    const childId = `0x${randomBytes(32).toString("hex")}`;
    await insertChildRequest(database.pool, { id: childId, parentId: parent.id, depositor: "0xabc", amountIn: 5n });
    const unknown = `0x${randomBytes(32).toString("hex")}`;

    const views = await requestViewsByIds(database.pool, [childId, unknown]);
    expect(views.map((view) => view.id)).toEqual([childId]);
    expect(views[0]).toMatchObject({ orderId: parent.orderId, amountIn: 5n });
    // The parent's id names the parent alone, never its order's children.
    expect((await requestViewsByIds(database.pool, [parent.id])).map((view) => view.id)).toEqual([parent.id]);
  });
});

describe("request listings by a transaction hash of any chain family", () => {
  const database = useMigratedDatabase();
  const ids = async (filter: RequestFilter) =>
    (await listRequestViews(database.pool, { filter, sortBy: "createdAt", sortDirection: "asc", limit: 50 })).map(
      (view) => view.id,
    );
  const txid = () => randomBytes(32).toString("hex");

  it("finds a Bitcoin txid by term, depositTxHash, fillTxHash, refundTxHash and v2 hash, in any case", async () => {
    const BTC = 8253038;
    const deposited = await insertTestRequest(database.pool, { originChainId: BTC, destinationChainId: 31338 });
    const filled = await insertTestRequest(database.pool, { originChainId: 31338, destinationChainId: BTC });
    const refunded = await insertTestRequest(database.pool, { originChainId: BTC, destinationChainId: 31338 });
    const hashes = { deposit: txid(), fill: txid(), refundDeposit: txid(), refund: txid() };
    const deposit = `INSERT INTO crossfill.request_deposits (chain_id, tx_hash, log_index, request_id, depositor, currency, amount, block_number, timestamp)
       VALUES ($1, $2, 0, $3, 'bcrt1qdepositor', 'bc1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqmql8k8', 1000, 10, 1000)`;
    await database.pool.query(deposit, [BTC, hashes.deposit, deposited.id]);
    await database.pool.query(deposit, [BTC, hashes.refundDeposit, refunded.id]);
    await database.pool.query(
      `INSERT INTO crossfill.request_fills (chain_id, tx_hash, log_index, request_id, amount, block_number, timestamp)
       VALUES ($1, $2, 1, $3, 900, 11, 1100)`,
      [BTC, hashes.fill, filled.id],
    );
    const refundId = await queueRefund(database.pool, {
      requestId: refunded.id,
      deposit: {
        chainId: BTC,
        txHash: hashes.refundDeposit,
        position: 0,
        currency: "bc1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqmql8k8",
        amount: 1000n,
      },
      reason: "test",
      refundsRequest: true,
      recipient: "bcrt1qdepositor",
    });
    await database.pool.query("UPDATE crossfill.refunds SET tx_hash = $2 WHERE id = $1", [refundId, hashes.refund]);

    const v3 = (parameter: string, value: string) => ids(parseRequestsV3Query({ [parameter]: [value] }).filter);
    expect(await v3("term", hashes.deposit.toUpperCase())).toEqual([deposited.id]);
    expect(await v3("term", hashes.fill)).toEqual([filled.id]);
    expect(await v3("term", hashes.refund)).toEqual([refunded.id]);
    expect(await v3("depositTxHash", hashes.deposit.toUpperCase())).toEqual([deposited.id]);
    expect(await v3("fillTxHash", hashes.fill)).toEqual([filled.id]);
    expect(await v3("refundTxHash", hashes.refund)).toEqual([refunded.id]);
    expect(await v3("depositTxHash", txid())).toEqual([]);
    // A txid is no EVM hash: a 0x-prefixed one names another transaction.
    expect(await v3("depositTxHash", `0x${hashes.deposit}`)).toEqual([]);
    expect(() => parseRequestsV3Query({ fillTxHash: [hashes.fill.slice(2)] })).toThrow("must be a 32-byte hex string");

    const v2 = (hash: string) => ids(parseRequestsV2Query({ hash: [hash] }).filter);
    expect(await v2(hashes.deposit)).toEqual([deposited.id]);
    expect(await v2(hashes.fill.toUpperCase())).toEqual([filled.id]);
  });
});

describe("request listings compare base58 addresses exactly, EVM hex in any case", () => {
  const database = useMigratedDatabase();
  const ids = async (filter: RequestFilter) =>
    (await listRequestViews(database.pool, { filter, sortBy: "createdAt", sortDirection: "asc", limit: 50 })).map(
      (view) => view.id,
    );
  const v3 = (parameter: string, value: string) => ids(parseRequestsV3Query({ [parameter]: [value] }).filter);
  /** The same address with one letter's case swapped: another valid 32-byte key, another wallet. */
  const caseVariant = (address: string) => {
    for (let i = 0; i < address.length; i++) {
      const swapped = address[i] === address[i]!.toUpperCase() ? address[i]!.toLowerCase() : address[i]!.toUpperCase();
      const variant = address.slice(0, i) + swapped + address.slice(i + 1);
      if (swapped !== address[i] && bs58.decodeUnsafe(variant)?.length === 32) return variant;
    }
    throw new Error(`no case variant of ${address} is a key`);
  };

  it("finds a Solana wallet, mint or search term as written, never its case variant (another key)", async () => {
    const wallet = Keypair.generate().publicKey.toBase58();
    const mint = Keypair.generate().publicKey.toBase58();
    const SOLANA = 792703809;
    const request = await insertTestRequest(database.pool, {
      originChainId: SOLANA,
      user: wallet,
      refundTo: wallet,
      originCurrency: mint,
    });
    const toSolana = await insertTestRequest(database.pool, { destinationChainId: SOLANA, recipient: wallet });
    // A request of the other wallet, whose address differs only by case.
    const other = await insertTestRequest(database.pool, { originChainId: SOLANA, user: caseVariant(wallet) });

    expect(await v3("user", wallet)).toEqual([request.id]);
    expect(await v3("recipient", wallet)).toEqual([toSolana.id]);
    expect(await v3("term", wallet)).toEqual([request.id, toSolana.id]);
    expect(await v3("currencyInAddress", mint)).toEqual([request.id]);
    expect(await v3("user", caseVariant(wallet))).toEqual([other.id]);
    expect(await v3("term", caseVariant(wallet))).toEqual([other.id]);
    expect(await v3("recipient", caseVariant(wallet))).toEqual([]);
    expect(await v3("currencyInAddress", caseVariant(mint))).toEqual([]);
  });

  it("finds an EVM wallet stored checksummed by its lower, upper or checksummed case", async () => {
    const wallet = privateKeyToAddress(generatePrivateKey());
    const request = await insertTestRequest(database.pool, { user: wallet, recipient: wallet });
    for (const written of [wallet, wallet.toLowerCase(), `0x${wallet.slice(2).toUpperCase()}`]) {
      expect(await v3("user", written)).toEqual([request.id]);
      expect(await v3("recipient", written)).toEqual([request.id]);
      expect(await v3("term", written)).toEqual([request.id]);
    }
  });

  it("serves address filters and the wallet term from the stored-address indexes (0420)", async () => {
    // ~200 requests a wallet: a page of one wallet's is the index's first 51 entries, already in order.
    await seedBenchRequests(database.pool, { integrators: 3, chainIds: [1, 10], wallets: 100, requests: 20_000 });
    const plan = (parameters: Record<string, string[]>) =>
      explainRequestPage(database.pool, parseRequestsV3Query({ limit: ["50"], ...parameters }));
    // A seeded wallet, written in upper case.
    const wallet = "0x000000000000000000000000000000000000002A";
    expect(await plan({ user: [wallet] })).toContain("Index Scan Backward using requests_user_address_idx");
    expect(await plan({ recipient: [wallet] })).toContain("Index Scan Backward using requests_recipient_address_idx");
    expect(await plan({ currencyOutAddress: [zeroAddress] })).toContain("requests_destination_currency_address_idx");
    // The term's id set: a look-up (plain or bitmap) in each wallet index.
    const term = await plan({ term: [wallet] });
    expect(term).toMatch(/Index Scan (using|on) requests_user_address_idx/);
    expect(term).toMatch(/Index Scan (using|on) requests_recipient_address_idx/);
    expect(term).not.toContain("Seq Scan on requests");
  });
});
