import { Repeater } from "graphql-yoga";
import type { StatusBus } from "../../events/createStatusBus.js";
import type { StatusUpdate } from "../../events/statusUpdate.js";

/** The updates of the bus that `matches` keeps, as the async iterator a subscription field returns; ends when the client stops. */
export function statusUpdateStream(bus: StatusBus, matches: (update: StatusUpdate) => boolean): AsyncIterable<StatusUpdate> {
  return new Repeater<StatusUpdate>(async (push, stop) => {
    const unsubscribe = bus.subscribe((update) => {
      if (matches(update)) void push(update);
    });
    await stop;
    unsubscribe();
  });
}
