import type { StatusRecord } from "../../../schema/statusRecord.js";
import type { StatusBus } from "../../events/createStatusBus.js";

export type StatusLookup = {
  /** The request's status record, or undefined when there is no such request. `requestId` is lower case. */
  get(requestId: string): Promise<StatusRecord | undefined>;
  close(): void;
};

export type StatusLookupOptions = {
  /** How long an entry is served without a read; the safety net for updates the bus lost without noticing. */
  ttlMs: number;
  /** Requests kept, least recently used dropped first. */
  maxEntries: number;
  now?: () => number;
};

type Entry = {
  record?: StatusRecord;
  readAt: number;
  /** The newest status_events id this gateway has been pushed for the request: nothing older may be answered. */
  floor: bigint;
};

// A failed request's refund moves (its transaction, refundFailReason) are not status changes, so nothing is pushed
// for them: such a request is read on every lookup. Every other change of a status record is a status event.
const cacheable = (record: StatusRecord) => record.status !== "failure";

// A read that started before a push arrived may miss that push's change; one started after it cannot (the
// notifier publishes after commit). Past this many reads the answer is returned as it is (a lagging replica).
const MAX_READS = 3;

/**
 * Status lookups served from memory, per gateway. Every update on the status bus drops what it makes stale and
 * raises the request's floor; a lookup of a missing, expired or stale entry reads Postgres (one read in flight
 * per request, however many callers wait on it), and a read older than the floor is read again. So a lookup never
 * answers a status older than one this gateway already pushed. Unknown requests are not remembered (a quote made
 * on another replica may be inserted any moment), nor failed ones.
 */
export function createStatusLookup(
  load: (requestId: string) => Promise<StatusRecord | undefined>,
  bus: StatusBus,
  options: StatusLookupOptions,
): StatusLookup {
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  const reading = new Map<string, Promise<StatusRecord | undefined>>();

  const put = (requestId: string, entry: Entry) => {
    // Re-inserted, so the Map's order is least recently used first.
    entries.delete(requestId);
    entries.set(requestId, entry);
    while (entries.size > options.maxEntries) entries.delete(entries.keys().next().value!);
  };

  // While the bus is down updates are lost: nothing is served from memory or remembered, and a read that started in
  // an earlier connection (it may predate a lost update) is not kept. Reconnected, the memory starts empty.
  let subscribed = true;
  let epoch = 0;
  const stopConnection = bus.onConnection((now) => {
    subscribed = now;
    epoch += 1;
    entries.clear();
    reading.clear();
  });

  const stop = bus.subscribe((update) => {
    const requestId = update.requestId.toLowerCase();
    const entry = entries.get(requestId);
    if (!entry && !reading.has(requestId)) return;
    const eventId = BigInt(update.eventId);
    const floor = entry && entry.floor > eventId ? entry.floor : eventId;
    const fresh = entry?.record && entry.record.lastEventId >= floor ? entry.record : undefined;
    put(requestId, { record: fresh, readAt: entry?.readAt ?? 0, floor });
  });

  const readOnce = (requestId: string) => {
    let pending = reading.get(requestId);
    if (!pending) {
      const read: Promise<StatusRecord | undefined> = load(requestId).finally(() => {
        if (reading.get(requestId) === read) reading.delete(requestId);
      });
      pending = read;
      reading.set(requestId, read);
    }
    return pending;
  };

  return {
    async get(requestId) {
      if (!subscribed) return load(requestId);
      const cached = entries.get(requestId);
      if (cached?.record && now() - cached.readAt < options.ttlMs) {
        put(requestId, cached);
        return cached.record;
      }
      let record: StatusRecord | undefined;
      for (let read = 0; read < MAX_READS; read++) {
        const readAt = now();
        const readEpoch = epoch;
        record = await readOnce(requestId);
        if (!record) return undefined;
        if (readEpoch !== epoch || !subscribed) return record;
        const floor = entries.get(requestId)?.floor ?? 0n;
        if (record.lastEventId >= floor) {
          if (cacheable(record)) put(requestId, { record, readAt, floor });
          else entries.delete(requestId);
          return record;
        }
      }
      return record;
    },
    close() {
      stop();
      stopConnection();
      entries.clear();
    },
  };
}
