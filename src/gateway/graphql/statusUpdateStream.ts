import { Repeater } from "graphql-yoga";
import type { StatusFanout } from "../../events/createStatusFanout.js";
import type { StatusUpdate } from "../../events/statusUpdate.js";

/**
 * The updates delivered under `key` (see statusUpdateKeys), as the async iterator a subscription field returns;
 * ends when the client stops, or — with `stillAllowed` — at the first of its checks, every `recheckMs`, that
 * answers false (a subscription to a key's requests ends once the key is revoked).
 */
export function statusUpdateStream(
  fanout: StatusFanout,
  key: string,
  access?: { stillAllowed: () => Promise<boolean>; recheckMs: number },
): AsyncIterable<StatusUpdate> {
  return new Repeater<StatusUpdate>(async (push, stop) => {
    const listener = (update: StatusUpdate) => void push(update);
    fanout.add(key, listener);
    let timer: NodeJS.Timeout | undefined;
    let ended = false;
    const recheck = async () => {
      // A failed check (database down) is no revocation: look again later.
      const allowed = await access!.stillAllowed().catch(() => true);
      if (ended) return;
      if (allowed) timer = setTimeout(recheck, access!.recheckMs);
      else stop();
    };
    if (access) timer = setTimeout(recheck, access.recheckMs);
    await stop;
    ended = true;
    clearTimeout(timer);
    fanout.remove(key, listener);
  });
}
