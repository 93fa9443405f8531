import { describe, expect, it } from "vitest";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { drawSponsorship, fundSponsor, getSponsorDraw, listSponsorBalances, sponsorBalance } from "./sponsorLedger.js";
import { withTransaction } from "./withTransaction.js";

describe("sponsor ledger (SQL)", () => {
  const database = useMigratedDatabase({ max: 6 });
  const draw = (requestId: string, amountMicroUsd: bigint) =>
    withTransaction(database.pool, (db) => drawSponsorship(db, { integrator: "acme", requestId, amountMicroUsd }));

  it("draws each request once while the balance lasts, never two at once past it, and releases failed requests' draws", async () => {
    expect(
      await withTransaction(database.pool, (db) => fundSponsor(db, { integrator: "acme", amountMicroUsd: 1_000n })),
    ).toBe(1_000n);
    const first = await insertTestRequest(database.pool);
    expect(await draw(first.id, 400n)).toBe(true);
    expect(await draw(first.id, 400n)).toBe(true);
    expect(await sponsorBalance(database.pool, "acme")).toBe(600n);
    const racing = await Promise.all([1, 2, 3, 4].map(() => insertTestRequest(database.pool)));
    const results = await Promise.all(racing.map((request) => draw(request.id, 400n)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await sponsorBalance(database.pool, "acme")).toBe(200n);
    // A request that fails after its draw no longer counts against the sponsor.
    await database.pool.query(
      "UPDATE crossfill.requests SET status = 'failure', fail_reason = 'EXECUTION_REVERTED' WHERE id = $1",
      [first.id],
    );
    expect(await sponsorBalance(database.pool, "acme")).toBe(600n);
    expect(await listSponsorBalances(database.pool)).toEqual([{ integrator: "acme", balance: 600n }]);
    expect(await sponsorBalance(database.pool, "nobody")).toBe(0n);
  });

  it("keeps a draw's payment in the input currency per bucket, to the unit; a draw without one reads back without", async () => {
    await withTransaction(database.pool, (db) => fundSponsor(db, { integrator: "paying", amountMicroUsd: 10_000n }));
    const request = await insertTestRequest(database.pool);
    const payment = {
      chainId: 10,
      currency: "0x00000000000000000000000000000000000000c1",
      amount: 12_345_678_901_234_567_890n,
      components: { execution: 12_345_678_901_234_567_000n, swap: 0n, relay: 890n, app: 0n, rent: 0n },
    };
    const drawn = { integrator: "paying", requestId: request.id, amountMicroUsd: 4_000n, payment };
    expect(await withTransaction(database.pool, (db) => drawSponsorship(db, drawn))).toBe(true);
    expect(await getSponsorDraw(database.pool, request.id)).toEqual(drawn);
    const plain = await insertTestRequest(database.pool);
    const bare = { integrator: "paying", requestId: plain.id, amountMicroUsd: 1_000n };
    expect(await withTransaction(database.pool, (db) => drawSponsorship(db, bare))).toBe(true);
    expect(await getSponsorDraw(database.pool, plain.id)).toEqual(bare);
    expect(await getSponsorDraw(database.pool, (await insertTestRequest(database.pool)).id)).toBeUndefined();
  });
});
