import { describe, expect, it } from "vitest";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import {
  depositAddressOwners,
  findRegenerableDepositAddress,
  nextDepositAddressIndex,
  requestDepositAddressType,
  watchedDepositAddresses,
} from "./depositAddresses.js";
import { transitionRequest } from "./transitionRequest.js";
import { withTransaction } from "./withTransaction.js";

const CHAIN = 8253038;
const user = "bcrt1quser";
const route = {
  originCurrency: "btc",
  recipient: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
};
/** The digest of the key and terms a quote was made on (src/quote/depositAddressTerms.ts). */
const TERMS = "a".repeat(64);

describe("depositAddresses", () => {
  const db = useMigratedDatabase();
  const quoted = (overrides: { address: string; key: string; supersedes?: string; deadline?: Date; terms?: string }) =>
    insertTestRequest(db.pool, {
      originChainId: CHAIN,
      user,
      refundTo: user,
      originCurrency: route.originCurrency,
      recipient: route.recipient,
      deadline: overrides.deadline ?? new Date(Date.now() + 600_000),
      depositAddress: { chainId: CHAIN, type: "open", ...overrides },
    });

  it("hands out each index once, whatever runs at the same time", async () => {
    const indexes = await Promise.all(Array.from({ length: 20 }, () => nextDepositAddressIndex(db.pool)));
    expect(new Set(indexes).size).toBe(20);
    expect(Math.min(...indexes)).toBeGreaterThanOrEqual(0);
  });

  it("records the address with its request, its owner and type; one address per index", async () => {
    const index = await nextDepositAddressIndex(db.pool);
    const request = await quoted({ address: "bcrt1qaddress1", key: String(index) });
    expect(await requestDepositAddressType(db.pool, request.id)).toBe("open");
    expect(await requestDepositAddressType(db.pool, "0xnone")).toBeUndefined();
    const owners = await depositAddressOwners(db.pool, CHAIN, ["bcrt1qaddress1", "bcrt1qunknown"]);
    expect([...owners]).toEqual([
      ["bcrt1qaddress1", { key: String(index), orderId: request.orderId, requestId: request.id }],
    ]);
    expect(await depositAddressOwners(db.pool, CHAIN, [])).toEqual(new Map());
    expect(await watchedDepositAddresses(db.pool, CHAIN)).toContain("bcrt1qaddress1");
    // The same index cannot name another address, nor an address be quoted twice at once.
    await expect(quoted({ address: "bcrt1qaddress2", key: String(index) })).rejects.toThrow();
    await expect(quoted({ address: "bcrt1qaddress1", key: String(index) })).rejects.toThrow(/current/);
    // Paid and filled: no longer watched.
    await withTransaction(db.pool, (client) => transitionRequest(client, { requestId: request.id, to: "pending" }));
    expect(await watchedDepositAddresses(db.pool, CHAIN)).toContain("bcrt1qaddress1");
    await withTransaction(db.pool, (client) => transitionRequest(client, { requestId: request.id, to: "success" }));
    expect(await watchedDepositAddresses(db.pool, CHAIN)).not.toContain("bcrt1qaddress1");
  });

  it("regenerates only an expired, unpaid request quoted on the same terms, and moves the address to the new one", async () => {
    const index = await nextDepositAddressIndex(db.pool);
    const now = new Date();
    const old = await quoted({ address: "bcrt1qregen", key: String(index), terms: TERMS });
    // A keyless request (no terms) is never regenerated, expired or not.
    const keyless = await quoted({ address: "bcrt1qkeyless", key: String(await nextDepositAddressIndex(db.pool)) });
    const lookup = (terms: string) =>
      findRegenerableDepositAddress(db.pool, { chainId: CHAIN, terms, now: new Date() });
    expect(await findRegenerableDepositAddress(db.pool, { chainId: CHAIN, terms: TERMS, now })).toBeUndefined();
    await db.pool.query("UPDATE crossfill.requests SET deadline = now() - interval '1 second' WHERE id = ANY($1)", [
      [old.id, keyless.id],
    ]);
    expect(await lookup("b".repeat(64))).toBeUndefined();
    expect(await findRegenerableDepositAddress(db.pool, { chainId: 1, terms: TERMS, now: new Date() })).toBeUndefined();
    const found = await lookup(TERMS);
    expect(found).toEqual({ requestId: old.id, address: "bcrt1qregen", key: String(index) });

    const next = await quoted({ address: "bcrt1qregen", key: String(index), supersedes: old.id, terms: TERMS });
    const rows = await db.pool.query(
      "SELECT request_id, superseded_by FROM crossfill.request_deposit_addresses WHERE address = 'bcrt1qregen' ORDER BY created_at",
    );
    expect(rows.rows).toEqual([
      { request_id: old.id, superseded_by: next.id },
      { request_id: next.id, superseded_by: null },
    ]);
    expect((await depositAddressOwners(db.pool, CHAIN, ["bcrt1qregen"])).get("bcrt1qregen")?.requestId).toBe(next.id);
    // A second regeneration of the same old request loses: the whole quote is not written.
    await expect(quoted({ address: "bcrt1qregen", key: String(index), supersedes: old.id })).rejects.toThrow(
      /regenerated by another quote/,
    );
  });
});
