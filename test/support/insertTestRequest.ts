import { randomBytes } from "node:crypto";
import type pg from "pg";
import { zeroAddress } from "viem";
import { type NewRequest, insertRequest } from "../../schema/requests.js";

/** A quoted request as the quote engine would store it, for tests of the stages after the quote. */
export async function insertTestRequest(pool: pg.Pool, overrides: Partial<NewRequest> = {}): Promise<NewRequest> {
  const request = testRequest(overrides);
  await insertRequest(pool, request);
  return request;
}

/** A quoted request, not stored: fresh ids, a 1000 → 990 wei bridge between the devnet chains. */
export function testRequest(overrides: Partial<NewRequest> = {}): NewRequest {
  return {
    id: `0x${randomBytes(32).toString("hex")}`,
    orderId: `0x${randomBytes(32).toString("hex")}`,
    requestType: "Bridge",
    tradeType: "EXACT_INPUT",
    user: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    recipient: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
    refundTo: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    originChainId: 31338,
    destinationChainId: 31339,
    originCurrency: zeroAddress,
    destinationCurrency: zeroAddress,
    amountIn: 1000n,
    amountOut: 990n,
    minimumAmountOut: 990n,
    slippageBps: 0n,
    deadline: new Date(Date.now() + 600_000),
    referrer: undefined,
    calls: [],
    orderData: {},
    quote: {},
    ...overrides,
  };
}
