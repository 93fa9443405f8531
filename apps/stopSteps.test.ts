import { describe, expect, it } from "vitest";
import { stopSteps } from "./stopSteps.js";

describe("stopSteps", () => {
  it("runs the steps in order, one at a time, and names the one running", async () => {
    const order: string[] = [];
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const shutdown = stopSteps([
      ["gateway", () => void order.push("gateway")],
      ["queues", async () => (order.push("queues"), held)],
      ["postgres", () => void order.push("postgres")],
    ]);
    expect(shutdown.running()).toBeUndefined();
    const done = shutdown();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect([order, shutdown.running()]).toEqual([["gateway", "queues"], "queues"]);
    release();
    await done;
    expect([order, shutdown.running()]).toEqual([["gateway", "queues", "postgres"], undefined]);
  });
});
