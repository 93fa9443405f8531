import { describe, expect, it } from "vitest";
import type { StatusRecord } from "../../../schema/statusRecord.js";
import type { RequestStatus } from "../../domain/requestStatus.js";
import { createStatusBus } from "../../events/createStatusBus.js";
import type { StatusUpdate } from "../../events/statusUpdate.js";
import { createStatusLookup } from "./createStatusLookup.js";

const ID = `0x${"ab".repeat(32)}`;

const record = (status: RequestStatus, lastEventId: bigint): StatusRecord => ({
  status,
  inTxHashes: [],
  txHashes: [],
  updatedAt: new Date(0),
  originChainId: 1,
  destinationChainId: 2,
  failReason: null,
  refundFailReason: null,
  failureDetails: null,
  lastEventId,
});

const pushed = (requestId: string, eventId: bigint, status: RequestStatus) =>
  ({
    eventId: eventId.toString(),
    requestId,
    wallets: [],
    chainIds: [1, 2],
    apiKeyId: null,
    apiKeyIntegrator: null,
    body: { event: "request.status.updated", timestamp: 0, data: { status, requestId } },
  }) as unknown as StatusUpdate;

/** A database of one row per request, counting reads; `hold()` makes the next read wait until released. */
function fakeDatabase() {
  const rows = new Map<string, StatusRecord>();
  let reads = 0;
  let held: { snapshot: StatusRecord | undefined; release: () => void } | undefined;
  let holdNext = false;
  const load = async (requestId: string) => {
    reads += 1;
    const snapshot = rows.get(requestId);
    if (holdNext) {
      holdNext = false;
      await new Promise<void>((release) => (held = { snapshot, release }));
    }
    return snapshot;
  };
  return {
    rows,
    load,
    reads: () => reads,
    hold: () => (holdNext = true),
    release: () => held?.release(),
  };
}

/** The in-process bus, with a switch for its connection (the in-process bus itself never drops). */
function droppableBus() {
  const bus = createStatusBus();
  const listeners = new Set<(subscribed: boolean) => void>();
  return {
    ...bus,
    onConnection(listener: (subscribed: boolean) => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    connection(subscribed: boolean) {
      for (const listener of listeners) listener(subscribed);
    },
  };
}

function setup(options: { ttlMs?: number; maxEntries?: number } = {}) {
  let clock = 1_000;
  const bus = droppableBus();
  const db = fakeDatabase();
  const lookup = createStatusLookup(db.load, bus, {
    ttlMs: options.ttlMs ?? 60_000,
    maxEntries: options.maxEntries ?? 100,
    now: () => clock,
  });
  return { bus, db, lookup, tick: (ms: number) => (clock += ms) };
}

describe("createStatusLookup", () => {
  it("answers from memory until the bus says the request changed, then reads it again", async () => {
    const { bus, db, lookup } = setup();
    db.rows.set(ID, record("waiting", 1n));
    expect((await lookup.get(ID))?.status).toBe("waiting");
    expect((await lookup.get(ID))?.status).toBe("waiting");
    expect(db.reads()).toBe(1);

    db.rows.set(ID, record("pending", 2n));
    await bus.publish(pushed(ID, 2n, "pending"));
    expect((await lookup.get(ID))?.status).toBe("pending");
    expect(db.reads()).toBe(2);
    // an update of another request leaves this one cached
    await bus.publish(pushed(`0x${"cd".repeat(32)}`, 3n, "pending"));
    await lookup.get(ID);
    expect(db.reads()).toBe(2);
    lookup.close();
    await bus.close();
  });

  it("never answers a read older than an update pushed while it was under way: it reads again", async () => {
    const { bus, db, lookup } = setup();
    db.rows.set(ID, record("pending", 2n));
    db.hold();
    const racing = lookup.get(ID);
    // the read saw `pending`; the change to `success` commits and is pushed before the read's answer arrives
    db.rows.set(ID, record("success", 3n));
    await bus.publish(pushed(ID, 3n, "success"));
    db.release();
    expect((await racing)?.status).toBe("success");
    expect(db.reads()).toBe(2);
    expect((await lookup.get(ID))?.status).toBe("success");
    expect(db.reads()).toBe(2);
    lookup.close();
    await bus.close();
  });

  it("shares one read among concurrent lookups of a request", async () => {
    const { db, lookup, bus } = setup();
    db.rows.set(ID, record("waiting", 1n));
    const answers = await Promise.all([lookup.get(ID), lookup.get(ID), lookup.get(ID)]);
    expect(answers.map((a) => a?.status)).toEqual(["waiting", "waiting", "waiting"]);
    expect(db.reads()).toBe(1);
    lookup.close();
    await bus.close();
  });

  it("reads again after the ttl (updates the bus lost), and does not remember unknown requests", async () => {
    const { db, lookup, tick, bus } = setup({ ttlMs: 5_000 });
    expect(await lookup.get(ID)).toBeUndefined();
    db.rows.set(ID, record("waiting", 1n));
    expect((await lookup.get(ID))?.status).toBe("waiting");
    db.rows.set(ID, record("pending", 2n));
    tick(4_999);
    expect((await lookup.get(ID))?.status).toBe("waiting");
    tick(1);
    expect((await lookup.get(ID))?.status).toBe("pending");
    expect(db.reads()).toBe(3);
    lookup.close();
    await bus.close();
  });

  it("reads a failed request every time: its refund's progress is not pushed", async () => {
    const { db, lookup, bus } = setup();
    db.rows.set(ID, { ...record("failure", 4n), refundFailReason: null });
    expect((await lookup.get(ID))?.refundFailReason).toBeNull();
    db.rows.set(ID, { ...record("failure", 4n), refundFailReason: "MANUAL_REFUND_REQUIRED" });
    expect((await lookup.get(ID))?.refundFailReason).toBe("MANUAL_REFUND_REQUIRED");
    expect(db.reads()).toBe(2);
    lookup.close();
    await bus.close();
  });

  it("keeps at most maxEntries requests, dropping the least recently used", async () => {
    const { db, lookup, bus } = setup({ maxEntries: 2 });
    const ids = ["01", "02", "03"].map((b) => `0x${b.repeat(32)}`);
    for (const id of ids) db.rows.set(id, record("waiting", 1n));
    await lookup.get(ids[0]);
    await lookup.get(ids[1]);
    await lookup.get(ids[0]); // ids[1] is now the least recently used
    await lookup.get(ids[2]);
    expect(db.reads()).toBe(3);
    await lookup.get(ids[0]);
    expect(db.reads()).toBe(3);
    await lookup.get(ids[1]);
    expect(db.reads()).toBe(4);
    lookup.close();
    await bus.close();
  });

  it("forgets everything when the bus drops, reads Postgres while it is down, and caches again once it is back", async () => {
    const { bus, db, lookup } = setup();
    db.rows.set(ID, record("pending", 2n));
    expect((await lookup.get(ID))?.status).toBe("pending");
    bus.connection(false);
    // the change is published while this gateway's subscription is down: it never arrives
    db.rows.set(ID, record("success", 3n));
    expect((await lookup.get(ID))?.status).toBe("success");
    expect((await lookup.get(ID))?.status).toBe("success");
    expect(db.reads()).toBe(3);
    bus.connection(true);
    expect((await lookup.get(ID))?.status).toBe("success");
    expect((await lookup.get(ID))?.status).toBe("success");
    expect(db.reads()).toBe(4);
    lookup.close();
    await bus.close();
  });

  it("does not keep a read that started before the bus dropped, nor one made while it was down", async () => {
    const { bus, db, lookup } = setup();
    db.rows.set(ID, record("pending", 2n));
    db.hold();
    const before = lookup.get(ID);
    bus.connection(false);
    db.rows.set(ID, record("success", 3n));
    bus.connection(true);
    db.release();
    // the held read saw `pending`: it is answered (it was the truth when asked) but not remembered
    expect((await before)?.status).toBe("pending");
    expect((await lookup.get(ID))?.status).toBe("success");
    expect(db.reads()).toBe(2);
    lookup.close();
    await bus.close();
  });
});
