import { describe, expect, it } from "vitest";
import { walletDepositStep } from "./walletDepositStep.js";

describe("walletDepositStep", () => {
  it("names the currency, both chains and the request, with the family's data and the status check", () => {
    const step = walletDepositStep(
      { name: "solana-devnet", displayName: "Solana" },
      { currency: { symbol: "SOL" } as never, destinationName: "Devnet A", requestId: "0xabc" },
      { instructions: [] },
    );
    expect(step).toEqual({
      id: "deposit",
      action: "Confirm transaction in your wallet",
      description: "Depositing SOL on Solana for the fill on Devnet A",
      kind: "transaction",
      requestId: "0xabc",
      depositAddress: "",
      items: [
        {
          status: "incomplete",
          data: { instructions: [] },
          check: { endpoint: "/intents/status/v3?requestId=0xabc", method: "GET" },
        },
      ],
    });
  });
});
