import { describe, expect, it } from "vitest";
import { createStatusBus } from "./createStatusBus.js";
import { createStatusFanout } from "./createStatusFanout.js";
import { statusUpdateKeys } from "./statusUpdate.js";
import type { StatusUpdate } from "./statusUpdate.js";

const update = (
  requestId: string,
  apiKeyId: string | null = null,
  apiKeyIntegrator: string | null = null,
): StatusUpdate => ({
  eventId: "1",
  requestId,
  wallets: ["0xaa", "0xbb"],
  chainIds: [1, 2],
  apiKeyId,
  apiKeyIntegrator,
  body: {
    event: "request.status.updated",
    timestamp: 0,
    data: { status: "pending", requestId } as StatusUpdate["body"]["data"],
  },
});

describe("status fan-out", () => {
  it("delivers under the request, wallet, chain, key and integrator an update carries", () => {
    expect(statusUpdateKeys(update("0xAB", "key_1", "acme"))).toEqual([
      "id:0xab",
      "wallet:0xaa",
      "wallet:0xbb",
      "chain:1",
      "chain:2",
      "key:key_1",
      "integrator:acme",
    ]);
    expect(statusUpdateKeys(update("0xab"))).not.toContain("key:null");
    expect(statusUpdateKeys(update("0xab")).some((key) => key.startsWith("integrator:"))).toBe(false);
  });

  it("calls a listener once however many of its keys match, and no more once removed", async () => {
    const bus = createStatusBus();
    const fanout = createStatusFanout(bus);
    const got: string[] = [];
    const listener = (u: StatusUpdate) => got.push(u.requestId);
    fanout.add("id:0x01", listener);
    fanout.add("chain:2", listener);
    const other: string[] = [];
    fanout.add("id:0x02", (u) => other.push(u.requestId));
    fanout.add("id:0x02", () => {
      throw new Error("a broken subscriber");
    });
    await bus.publish(update("0x01"));
    await bus.publish(update("0x02"));
    expect(got).toEqual(["0x01", "0x02"]);
    expect(other).toEqual(["0x02"]);
    fanout.remove("id:0x01", listener);
    fanout.remove("chain:2", listener);
    await bus.publish(update("0x01"));
    expect(got).toHaveLength(2);
    fanout.close();
    await bus.publish(update("0x02"));
    expect(other).toHaveLength(1);
    await bus.close();
  });

  it("reaches 10,000 subscribers of one chain and skips 10,000 of other requests, in a few milliseconds", async () => {
    const bus = createStatusBus();
    const fanout = createStatusFanout(bus);
    let delivered = 0;
    for (let i = 0; i < 10_000; i++) {
      fanout.add("chain:2", () => delivered++);
      fanout.add(`id:0x${i.toString(16)}-other`, () => delivered++);
    }
    const started = performance.now();
    await bus.publish(update("0xfeed"));
    const elapsed = performance.now() - started;
    console.log(`fan-out of one update to 10,000 subscribers (20,000 registered): ${elapsed.toFixed(2)} ms`);
    expect(delivered).toBe(10_000);
    fanout.close();
    await bus.close();
  });
});
