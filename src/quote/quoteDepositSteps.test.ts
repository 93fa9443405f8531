import { describe, expect, it } from "vitest";
import type { DepositStepsInput, QuotePort, QuoteStep } from "../chains/adapter.js";
import type { ChainConfig } from "../chains/chainConfig.js";
import { testQuoteRequest } from "../../test/support/testQuoteRequest.js";
import { quoteDepositSteps } from "./quoteDepositSteps.js";
import type { QuoteRequest } from "./validateQuoteRequest.js";

/** An origin that records what it was asked to build, and answers one step per ask. */
function origin() {
  const asked: DepositStepsInput[] = [];
  const port = {
    depositSteps: async (input: DepositStepsInput): Promise<QuoteStep[]> => {
      asked.push(input);
      return [
        { id: "deposit", action: "pay", description: `to ${input.depositAddress}`, kind: "transaction" } as QuoteStep,
      ];
    },
  } as unknown as QuotePort;
  return { market: { origin: port, depositAccount: { balance: 9n, allowance: 4n } }, asked };
}

const order = { orderId: "0xorder", requestId: "0xrequest" };
const destinationChain = { id: 31338, name: "devnet-b", displayName: "Devnet B" } as ChainConfig;

describe("quoteDepositSteps", () => {
  it("asks the origin for the deposit of the priced input, for the order, with the user's allowance", async () => {
    const { market, asked } = origin();
    const request: QuoteRequest = { ...testQuoteRequest, destinationChain, depositAddress: undefined };
    const steps = await quoteDepositSteps(request, market, { amountIn: 480_000n }, order, undefined);
    expect(steps).toHaveLength(1);
    expect(asked).toEqual([
      {
        user: "bcrt1quser",
        currency: testQuoteRequest.currencyIn,
        amount: 480_000n,
        orderId: "0xorder",
        requestId: "0xrequest",
        allowance: 4n,
        destinationName: "Devnet B",
      },
    ]);
  });

  it("pays the quote's deposit address when it asked for one, and names the destination by its name without a display name", async () => {
    const { market, asked } = origin();
    const request: QuoteRequest = {
      ...testQuoteRequest,
      destinationChain: { ...destinationChain, displayName: undefined },
    };
    await quoteDepositSteps(request, market, { amountIn: 1n }, order, { address: "bcrt1qaddress7" });
    expect(asked[0]).toMatchObject({ depositAddress: "bcrt1qaddress7", destinationName: "devnet-b" });
  });
});
