import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { ONCHAIN_FIXTURE, insertIndexedFill } from "../test/support/onchainFixture.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import type { FillFact } from "./chainFacts.js";
import {
  applyIndexedFill,
  findReceiptFillsNotIndexed,
  markFillDisagreement,
  recordReceiptFill,
} from "./receiptFills.js";
import { fillsOfRequests } from "./requestChainFacts.js";
import { indexPosition } from "../src/domain/factPosition.js";

const hash = () => `0x${randomBytes(32).toString("hex")}`;

describe("receipt fills", () => {
  const database = useMigratedDatabase();
  const pool = () => database.pool;

  /** A request with a deposit at t=1000, so its fill time is known once a fill is. */
  async function depositedRequest() {
    const request = await insertTestRequest(pool());
    await pool().query(
      `INSERT INTO crossfill.request_deposits (chain_id, tx_hash, log_index, request_id, depositor, currency, amount, block_number, timestamp, block_hash)
       VALUES (31338, $1, 0, $2, '0xd', '0x0', 1000, 5, 1000, '0xb5')`,
      [hash(), request.id],
    );
    return request;
  }
  const receiptFill = (requestId: string, overrides: Partial<FillFact> = {}): FillFact => ({
    chainId: 31339,
    txHash: hash(),
    position: 1,
    requestId,
    currency: "0x0",
    recipient: "0xr",
    amount: 990n,
    blockNumber: 9n,
    blockHash: "0xb9",
    timestamp: 1003n,
    txFee: 7n,
    ...overrides,
  });
  const fillSeconds = async (id: string) =>
    (await pool().query("SELECT fill_seconds FROM crossfill.requests WHERE id = $1", [id])).rows[0].fill_seconds;

  it("records a receipt's fill as a provisional fill every reader sees at once; a repeat writes nothing", async () => {
    const request = await depositedRequest();
    const fact = receiptFill(request.id);
    expect(await recordReceiptFill(pool(), fact)).toBe(true);
    expect(await recordReceiptFill(pool(), fact)).toBe(false);
    const [[fill]] = await fillsOfRequests(pool(), [request.id]);
    expect(fill).toMatchObject({
      txHash: fact.txHash,
      logIndex: 1,
      amount: 990n,
      provisional: true,
      disagreement: null,
    });
    // the listing's fill time (and the stats built on it) count it like an indexed fill
    expect(await fillSeconds(request.id)).toBe("3");
  });

  it("confirms it with the indexed fill of the same log, taking the indexer's values", async () => {
    const request = await depositedRequest();
    const fact = receiptFill(request.id);
    await recordReceiptFill(pool(), fact);
    expect(await applyIndexedFill(pool(), { ...fact, timestamp: 1004n, txFee: null })).toEqual({
      applied: "confirmed",
    });
    const [[fill]] = await fillsOfRequests(pool(), [request.id]);
    // the indexer's time; the receipt's fee kept where the indexer recorded none
    expect(fill).toMatchObject({ provisional: false, timestamp: 1004, txFee: 7n, disagreement: null });
    expect(await applyIndexedFill(pool(), fact)).toEqual({ applied: "none" });
    // a confirmed fill is the indexer's: a receipt seen again does not move it
    expect(await recordReceiptFill(pool(), { ...fact, blockHash: "0xother", blockNumber: 10n })).toBe(false);
    expect((await fillsOfRequests(pool(), [request.id]))[0][0].blockNumber).toBe(9n);
  });

  it("drops a not-indexed note once the index shows the fill, and keeps what a reorg did", async () => {
    const request = await depositedRequest();
    const late = receiptFill(request.id);
    await recordReceiptFill(pool(), late);
    await markFillDisagreement(pool(), late, { reason: "not indexed", detectedAt: 1 });
    expect(await applyIndexedFill(pool(), late)).toEqual({ applied: "confirmed" });
    expect((await fillsOfRequests(pool(), [request.id]))[0][0]).toMatchObject({
      provisional: false,
      disagreement: null,
    });

    const other = await depositedRequest();
    const reorged = receiptFill(other.id);
    await recordReceiptFill(pool(), reorged);
    const note = { reason: "fill reorged out", blockNumber: "9", blockHash: "0xb9", action: "re-sent" };
    await markFillDisagreement(pool(), reorged, note);
    expect(await applyIndexedFill(pool(), { ...reorged, blockHash: "0xba", blockNumber: 10n })).toEqual({
      applied: "confirmed",
    });
    expect((await fillsOfRequests(pool(), [other.id]))[0][0]).toMatchObject({ provisional: false, disagreement: note });
  });

  it("replaces a provisional fill by another indexed fill of the request, keeping the receipt's hash as the disagreement", async () => {
    const request = await depositedRequest();
    const fact = receiptFill(request.id);
    await recordReceiptFill(pool(), fact);
    const indexed = receiptFill(request.id, { position: 4 });
    expect(await applyIndexedFill(pool(), indexed)).toEqual({ applied: "replaced", receiptTxHash: fact.txHash });
    const fills = (await fillsOfRequests(pool(), [request.id]))[0];
    expect(fills).toHaveLength(1);
    expect(fills[0]).toMatchObject({
      txHash: indexed.txHash,
      logIndex: 4,
      provisional: false,
      disagreement: { reason: "indexed another fill", receiptTxHash: fact.txHash },
    });
  });

  it("applies an indexed fill of a request without one as new, once", async () => {
    const request = await depositedRequest();
    const fact = receiptFill(request.id);
    expect(await applyIndexedFill(pool(), fact)).toEqual({ applied: "new" });
    expect(await applyIndexedFill(pool(), fact)).toEqual({ applied: "none" });
    // nor is a receipt of another transaction recorded beside it: one fill per request
    expect(await recordReceiptFill(pool(), receiptFill(request.id))).toBe(false);
    expect((await fillsOfRequests(pool(), [request.id]))[0]).toHaveLength(1);
    // applied with its block's hash, so a reorg that drops it from the index is followed like a receipt's fill
    await pool()
      .query(ONCHAIN_FIXTURE)
      .catch(() => undefined);
    const gone = await findReceiptFillsNotIndexed(pool(), "onchain_fixture", { olderThanMs: 0, withinMs: 600_000 });
    expect(gone.filter((fill) => fill.requestId === request.id)).toMatchObject([
      { txHash: fact.txHash, blockHash: fact.blockHash, provisional: false },
    ]);
  });

  it("lists receipt fills the index does not show, notes a disagreement, and moves a fill mined again", async () => {
    await pool()
      .query(ONCHAIN_FIXTURE)
      .catch(() => undefined);
    const request = await depositedRequest();
    const fact = receiptFill(request.id);
    await recordReceiptFill(pool(), fact);
    const unindexed = async (olderThanMs: number) =>
      (await findReceiptFillsNotIndexed(pool(), "onchain_fixture", { olderThanMs, withinMs: 600_000 })).filter(
        (fill) => fill.requestId === request.id,
      );
    expect(await unindexed(60_000)).toEqual([]);
    await pool().query(
      "UPDATE crossfill.request_fills SET created_at = now() - interval '2 minutes' WHERE tx_hash = $1",
      [fact.txHash],
    );
    expect(await unindexed(60_000)).toMatchObject([
      { txHash: fact.txHash, blockNumber: 9n, blockHash: "0xb9", provisional: true, disagreement: null },
    ]);

    // confirmed by the indexer: no longer listed; gone from the index again (a reorg): listed, still confirmed
    await insertIndexedFill(pool(), request.id, fact.txHash, indexPosition(fact.position));
    expect(await applyIndexedFill(pool(), fact)).toEqual({ applied: "confirmed" });
    expect(await unindexed(60_000)).toEqual([]);
    await pool().query("DELETE FROM onchain_fixture.fill WHERE tx_hash = $1", [fact.txHash]);
    expect(await unindexed(60_000)).toMatchObject([{ txHash: fact.txHash, provisional: false }]);

    // reorged out: provisional again, with why
    const reorg = { reason: "fill reorged out", detectedAt: 1, blockHash: "0xb9" };
    expect(await markFillDisagreement(pool(), fact, reorg)).toBe(true);
    expect((await fillsOfRequests(pool(), [request.id]))[0][0]).toMatchObject({
      provisional: true,
      disagreement: reorg,
    });
    // the same transaction mined again in another block: the fill moves there, what happened stays
    const again = { ...fact, blockNumber: 10n, blockHash: "0xb10", timestamp: 1005n };
    expect(await recordReceiptFill(pool(), again)).toBe(true);
    expect(await recordReceiptFill(pool(), again)).toBe(false);
    const [[moved]] = await fillsOfRequests(pool(), [request.id]);
    expect(moved).toMatchObject({ blockNumber: 10n, timestamp: 1005, provisional: true, disagreement: reorg });
    expect(await fillSeconds(request.id)).toBe("5");
    expect(await applyIndexedFill(pool(), again)).toEqual({ applied: "confirmed" });
    expect((await fillsOfRequests(pool(), [request.id]))[0][0]).toMatchObject({
      provisional: false,
      disagreement: reorg,
    });
  });

  it("takes the indexed block's hash when the indexer confirms a fill mined again before the receipt moves it", async () => {
    const request = await depositedRequest();
    const fact = receiptFill(request.id);
    await recordReceiptFill(pool(), fact);
    await markFillDisagreement(pool(), fact, { reason: "fill reorged out", detectedAt: 1, blockHash: "0xb9" });
    const indexed = { ...fact, blockNumber: 11n, blockHash: "0xb11", timestamp: 1006n };
    expect(await applyIndexedFill(pool(), indexed)).toEqual({ applied: "confirmed" });
    const { rows } = await pool().query(
      "SELECT block_number::text, block_hash, provisional FROM crossfill.request_fills WHERE request_id = $1",
      [request.id],
    );
    expect(rows).toEqual([{ block_number: "11", block_hash: "0xb11", provisional: false }]);
  });
});
