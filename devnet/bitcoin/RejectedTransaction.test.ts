import { describe, expect, it } from "vitest";
import { RejectedTransaction } from "./RejectedTransaction.js";

describe("RejectedTransaction", () => {
  it("renders the 400 body Esplora relays from bitcoind", () => {
    expect(new RejectedTransaction(-26, "dust").esploraText).toBe(
      'sendrawtransaction RPC error: {"code":-26,"message":"dust"}',
    );
  });
});
