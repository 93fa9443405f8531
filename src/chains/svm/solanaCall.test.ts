import { describe, expect, it } from "vitest";
import { solanaCall } from "./solanaCall.js";

describe("solanaCall", () => {
  it("passes an answer through", async () => {
    expect(await solanaCall(1, "getSlot", async () => 7)).toBe(7);
  });

  it("turns a timeout into REQUEST_TIMED_OUT and any other failure into RPC_HTTP_ERROR, both retryable", async () => {
    await expect(
      solanaCall(9, "getSlot", async () => {
        throw new Error("The operation was aborted due to timeout");
      }),
    ).rejects.toMatchObject({ errorCode: "REQUEST_TIMED_OUT", retryable: true });
    await expect(
      solanaCall(9, "getBalance", async () => {
        throw new Error("failed to get balance: fetch failed");
      }),
    ).rejects.toMatchObject({
      errorCode: "RPC_HTTP_ERROR",
      retryable: true,
      message: expect.stringContaining("getBalance"),
    });
  });
});
