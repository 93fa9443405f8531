import { describe, expect, it } from "vitest";
import { type EndpointPass, type EndpointWait, createEndpointGate } from "./createEndpointGate.js";

const isPass = (answer: EndpointPass | EndpointWait): answer is EndpointPass => "done" in answer;

describe("createEndpointGate", () => {
  it("lets `concurrency` attempts in flight per endpoint; the next waits, other endpoints do not", () => {
    let clock = 1_000_000;
    const gate = createEndpointGate({ concurrency: 2, breakerFailures: 3, breakerCooldownMs: 10_000 }, () => clock);
    const a = gate.enter("slow");
    const b = gate.enter("slow");
    expect([isPass(a), isPass(b)]).toEqual([true, true]);
    const third = gate.enter("slow");
    expect(third).toMatchObject({ reason: "busy" });
    expect((third as EndpointWait).waitUntil).toBeGreaterThan(clock);
    expect(isPass(gate.enter("fast"))).toBe(true);
    clock += 3_000;
    (a as EndpointPass).done(true);
    const again = gate.enter("slow");
    expect(isPass(again)).toBe(true);
    clock += 10;
    (b as EndpointPass).done(true);
    (again as EndpointPass).done(true);
  });

  it("opens after N failures in a row, skips the endpoint for the cool-down, then lets one probe decide", () => {
    let clock = 1_000_000;
    const gate = createEndpointGate({ concurrency: 4, breakerFailures: 3, breakerCooldownMs: 10_000 }, () => clock);
    const fail = () => (gate.enter("down") as EndpointPass).done(false);
    fail();
    (gate.enter("down") as EndpointPass).done(true); // a success resets the count
    fail();
    fail();
    const third = gate.enter("down"); // two in a row: still closed
    expect(isPass(third)).toBe(true);
    (third as EndpointPass).done(false);
    clock += 1;
    const opened = gate.enter("down");
    expect(opened).toMatchObject({ reason: "breaker open" });
    expect((opened as EndpointWait).waitUntil).toBeGreaterThanOrEqual(clock + 9_999);
    // an open breaker lets nothing through until the cool-down ends
    clock += 5_000;
    expect(gate.enter("down")).toMatchObject({ reason: "breaker open" });
    clock += 5_000;
    const probe = gate.enter("down");
    expect(isPass(probe)).toBe(true);
    expect(gate.enter("down")).toMatchObject({ reason: "breaker open" }); // one probe at a time
    (probe as EndpointPass).done(false);
    expect(gate.enter("down")).toMatchObject({ reason: "breaker open" }); // a failed probe opens it again
    clock += 10_001;
    const second = gate.enter("down") as EndpointPass;
    second.done(true);
    expect(isPass(gate.enter("down"))).toBe(true); // a delivered probe closes it
    expect(isPass(gate.enter("down"))).toBe(true);
  });
});
