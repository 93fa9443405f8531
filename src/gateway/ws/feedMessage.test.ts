import { describe, expect, it } from "vitest";
import { parseFeedMessage } from "./feedMessage.js";

const subscribe = (filters: unknown) => JSON.stringify({ type: "subscribe", event: "request.status.updated", filters });

describe("parseFeedMessage", () => {
  it("reads a subscription of each filter shape and a ping", () => {
    const id = `0x${"ab".repeat(32)}`;
    expect(parseFeedMessage(subscribe({ id }))).toEqual({
      ok: true,
      message: { type: "subscribe", event: "request.status.updated", filters: { id } },
    });
    expect(parseFeedMessage(subscribe({ chainId: 1 })).ok).toBe(true);
    expect(parseFeedMessage(JSON.stringify({ type: "ping" })).ok).toBe(true);
  });

  it("says which filter keys there are when the filter fits none, or several", () => {
    for (const filters of [{ foo: 1 }, { chainId: 1, wallet: "0x1" }, undefined]) {
      const parsed = parseFeedMessage(subscribe(filters));
      expect(parsed).toEqual({
        ok: false,
        reason: expect.stringMatching(/^filters: give exactly one of id .*wallet .*chainId/),
      });
    }
  });

  it("names the field at fault and what it must be", () => {
    expect(parseFeedMessage(subscribe({ id: "0x12" }))).toEqual({
      ok: false,
      reason: "filters.id: must be a 32-byte hex request id",
    });
    expect(parseFeedMessage(JSON.stringify({ type: "sub" }))).toEqual({
      ok: false,
      reason: "type: must be subscribe, unsubscribe or ping",
    });
    expect(parseFeedMessage(JSON.stringify({ type: "subscribe", event: "x", filters: { chainId: 1 } }))).toEqual({
      ok: false,
      reason: "event: must be request.status.updated",
    });
    expect(parseFeedMessage("{")).toEqual({ ok: false, reason: "message is not JSON" });
  });
});
