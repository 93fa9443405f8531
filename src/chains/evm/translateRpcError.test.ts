import { CallExecutionError, HttpRequestError, RpcRequestError, TimeoutError } from "viem";
import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../../domain/errors.js";
import { translateRpcError } from "./translateRpcError.js";

const url = "http://127.0.0.1:1";

describe("translateRpcError", () => {
  it("makes a timeout REQUEST_TIMED_OUT and any other node failure RPC_HTTP_ERROR, both retryable", () => {
    expect(translateRpcError(new TimeoutError({ body: {}, url }), 7)).toMatchObject({
      errorCode: "REQUEST_TIMED_OUT",
      status: 504,
      retryable: true,
    });
    const refused = new HttpRequestError({ url, cause: new Error("fetch failed") });
    expect(translateRpcError(refused, 7)).toMatchObject({ errorCode: "RPC_HTTP_ERROR", status: 502, retryable: true });
    const rpc = new RpcRequestError({ body: {}, url, error: { code: -32603, message: "internal error" } });
    expect(translateRpcError(rpc, 7)).toMatchObject({ errorCode: "RPC_HTTP_ERROR" });
    // A call wraps its transport failure like a revert; it is still the node's failure.
    const wrapped = new CallExecutionError(refused, {});
    expect(translateRpcError(wrapped, 7)).toMatchObject({ errorCode: "RPC_HTTP_ERROR" });
    // So does a node's internal error on a call (not a revert: JSON-RPC code -32603, not 3).
    expect(translateRpcError(new CallExecutionError(rpc, {}), 7)).toMatchObject({ errorCode: "RPC_HTTP_ERROR" });
  });

  it("leaves reverts and domain errors as they are", () => {
    const revert = new RpcRequestError({
      body: {},
      url,
      error: { code: 3, message: "execution reverted", data: "0x" },
    });
    const call = new CallExecutionError(revert, {});
    expect(translateRpcError(call, 7)).toBe(call);
    const domain = new InvalidInputError("INVALID_INPUT", "no");
    expect(translateRpcError(domain, 7)).toBe(domain);
  });
});
