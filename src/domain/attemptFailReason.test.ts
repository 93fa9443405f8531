import { describe, expect, it } from "vitest";
import { attemptFailReason } from "./attemptFailReason.js";

describe("attemptFailReason", () => {
  it("reports a reverted same-chain swap attempt as TRANSACTION_REVERTED, and keeps other requests' reasons", () => {
    expect(attemptFailReason("Same-chain Swap", "EXECUTION_REVERTED")).toBe("TRANSACTION_REVERTED");
    expect(attemptFailReason("Same-chain Swap", "DESTINATION_TOKEN_TRANSFER_REJECTED")).toBe("TRANSACTION_REVERTED");
    expect(attemptFailReason("Crosschain Swap", "EXECUTION_REVERTED")).toBe("EXECUTION_REVERTED");
    expect(attemptFailReason("Send", "DESTINATION_TOKEN_TRANSFER_REJECTED")).toBe(
      "DESTINATION_TOKEN_TRANSFER_REJECTED",
    );
  });
});
