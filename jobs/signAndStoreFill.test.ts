import { describe, expect, it } from "vitest";
import { getFillAttempt } from "../schema/fillAttempts.js";
import { getRequest } from "../schema/requests.js";
import { fundSponsor, getSponsorDraw, sponsorBalance } from "../schema/sponsorLedger.js";
import { withTransaction } from "../schema/withTransaction.js";
import type { PreparedTransaction, SolverPort } from "../src/chains/adapter.js";
import { testFamilyFill } from "../test/support/testFamilyFill.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import type { FillContext } from "./fillDeps.js";
import { prepareSolverFill } from "./prepareSolverFill.js";
import { signAndStoreFill } from "./signAndStoreFill.js";

/** Over the test family's real adapter (its nonces taken through the fill ledger) and the fill ledger in Postgres. */
describe("signAndStoreFill", () => {
  const database = useMigratedDatabase();
  const requestOf = async (id: string) => (await getRequest(database.pool, id))!;

  /** A pending request and its prepared fill, as the phase before leaves them. */
  async function prepared(fill: ReturnType<typeof testFamilyFill>, quote: Record<string, unknown> = {}) {
    const { request } = await fill.pendingRequest({ quote });
    const ready = await prepareSolverFill(fill.context, request, 990n);
    if (typeof ready === "string") throw new Error(ready);
    return { request, ...ready };
  }
  const sign = (
    context: FillContext,
    { request, solver, transaction }: Awaited<ReturnType<typeof prepared>>,
  ): ReturnType<typeof signAndStoreFill> => signAndStoreFill(context, request, solver, transaction, 990n);

  it("stores the signed fill with the solver's next nonce, broadcasting nothing; a second run gets the same fill", async () => {
    const fill = testFamilyFill(database.pool);
    const first = await prepared(fill);
    const stored = await sign(fill.context, first);
    expect(stored).toMatchObject({
      requestId: first.request.id,
      chainId: fill.destination.id,
      solver: fill.destination.solver,
      nonce: 0,
      currency: first.request.destinationCurrency,
      amount: 990n,
      recipient: first.request.recipient,
    });
    expect(await getFillAttempt(database.pool, first.request.id)).toEqual(stored);
    // Stored before it is broadcast: the chain has not seen it.
    expect(fill.ledgers.destination.mempool.size).toBe(0);
    // A retried job signs nothing new: same transaction, and the nonce is not spent twice.
    expect(await sign(fill.context, first)).toEqual(stored);
    const second = await prepared(fill);
    expect(await sign(fill.context, second)).toMatchObject({ nonce: 1 });
  });

  it("signs nothing for a request that is no longer pending (failed meanwhile, its refund on the way)", async () => {
    const fill = testFamilyFill(database.pool);
    const ready = await prepared(fill);
    await database.pool.query("UPDATE crossfill.requests SET status = 'failure' WHERE id = $1", [ready.request.id]);
    expect(await sign(fill.context, ready)).toBeUndefined();
    expect(await getFillAttempt(database.pool, ready.request.id)).toBeUndefined();
    // Its nonce is still free.
    expect(await sign(fill.context, await prepared(fill))).toMatchObject({ nonce: 0 });
  });

  const sponsored = (integrator: string, amountMicroUsd: bigint) => ({
    sponsor: {
      integrator,
      amountMicroUsd: amountMicroUsd.toString(),
      payment: { chainId: 41001, currency: "TST1NATIVE", amount: "7", components: { relayer: "5", app: "2" } },
    },
  });
  const fund = (integrator: string, amountMicroUsd: bigint) =>
    withTransaction(database.pool, (db) => fundSponsor(db, { integrator, amountMicroUsd }));

  it("draws the sponsor's share with the fill, once however often it runs", async () => {
    const fill = testFamilyFill(database.pool);
    await fund("acme", 1_000n);
    const ready = await prepared(fill, sponsored("acme", 600n));
    const stored = await sign(fill.context, ready);
    expect(stored).toMatchObject({ requestId: ready.request.id });
    expect(await getSponsorDraw(database.pool, ready.request.id)).toEqual({
      integrator: "acme",
      requestId: ready.request.id,
      amountMicroUsd: 600n,
      payment: { chainId: 41001, currency: "tst1native", amount: 7n, components: { relayer: 5n, app: 2n } },
    });
    expect(await sign(fill.context, ready)).toEqual(stored);
    expect(await sponsorBalance(database.pool, "acme")).toBe(400n);
  });

  it("fails the request, signing nothing, when the sponsor can no longer pay its share", async () => {
    const fill = testFamilyFill(database.pool);
    await fund("thrifty", 599n);
    const ready = await prepared(fill, sponsored("thrifty", 600n));
    expect(await sign(fill.context, ready)).toBe("failed: SPONSOR_BALANCE_TOO_LOW");
    const failed = await requestOf(ready.request.id);
    expect([failed.status, failed.failReason]).toEqual(["failure", "SPONSOR_BALANCE_TOO_LOW"]);
    expect(await getFillAttempt(database.pool, ready.request.id)).toBeUndefined();
    expect(await sponsorBalance(database.pool, "thrifty")).toBe(599n);
    expect(fill.refunds).toHaveLength(1);
  });

  it("keeps no draw and no nonce when signing fails: the draw and the fill commit together or not at all", async () => {
    const fill = testFamilyFill(database.pool);
    await fund("careful", 1_000n);
    const ready = await prepared(fill, sponsored("careful", 600n));
    const real = ready.solver;
    const failing: SolverPort = {
      ...real,
      async signTransaction(ledger, transaction: PreparedTransaction) {
        await real.signTransaction(ledger, transaction);
        throw new Error("signer unavailable");
      },
    };
    await expect(signAndStoreFill(fill.context, ready.request, failing, ready.transaction, 990n)).rejects.toThrow(
      "signer unavailable",
    );
    expect(await getSponsorDraw(database.pool, ready.request.id)).toBeUndefined();
    expect(await getFillAttempt(database.pool, ready.request.id)).toBeUndefined();
    expect(await sponsorBalance(database.pool, "careful")).toBe(1_000n);
    // The nonce it took was given back with the rollback.
    expect(await sign(fill.context, ready)).toMatchObject({ nonce: 0 });
  });
});
