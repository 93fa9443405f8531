import { Repeater } from "graphql-yoga";
import type { StatusFanout } from "../../events/createStatusFanout.js";
import type { StatusUpdate } from "../../events/statusUpdate.js";

/** The updates delivered under `key` (see statusUpdateKeys), as the async iterator a subscription field returns; ends when the client stops. */
export function statusUpdateStream(fanout: StatusFanout, key: string): AsyncIterable<StatusUpdate> {
  return new Repeater<StatusUpdate>(async (push, stop) => {
    const listener = (update: StatusUpdate) => void push(update);
    fanout.add(key, listener);
    await stop;
    fanout.remove(key, listener);
  });
}
