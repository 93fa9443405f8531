import { beforeAll, describe, expect, it } from "vitest";
import { creditAppFees } from "../../schema/appFeeLedger.js";
import { APP_FEE_TEST_USDC, appFeeTestRegistry } from "../../test/support/appFeeTestChains.js";
import { insertTestRequest } from "../../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../../test/support/useMigratedDatabase.js";
import { createStaticPriceSource } from "../pricing/priceSource.js";
import { readAppFeeBalances } from "./readAppFeeBalances.js";

const wallet = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

describe("readAppFeeBalances", () => {
  const database = useMigratedDatabase();
  beforeAll(async () => {
    const request = await insertTestRequest(database.pool);
    const fee = (amount: string) => ({ recipient: wallet, bps: "10", amount, amountFormatted: "", amountUsd: "0" });
    await creditAppFees(database.pool, {
      requestId: request.id,
      chainId: 10,
      currency: APP_FEE_TEST_USDC,
      fees: [fee("2500000")],
    });
    // Earned on a chain no longer configured: not claimable here, not shown.
    const gone = await insertTestRequest(database.pool);
    await creditAppFees(database.pool, {
      requestId: gone.id,
      chainId: 77,
      currency: APP_FEE_TEST_USDC,
      fees: [fee("9")],
    });
  });

  it("shows the unclaimed balances as Amount objects at today's prices, with the official client's totals", async () => {
    const deps = { registry: appFeeTestRegistry, prices: createStaticPriceSource({ USDC: "2" }) };
    expect(await readAppFeeBalances(database.pool, deps, wallet.toLowerCase())).toEqual({
      balances: [
        {
          currency: appFeeTestRegistry.currency(10, APP_FEE_TEST_USDC),
          amount: "2500000",
          amountFormatted: "2.5",
          amountUsd: "5",
          minimumAmount: "2500000",
        },
      ],
      totalBalanceUsd: 5,
      outstandingFastFillBalanceUsd: 0,
      availableBalanceUsd: 5,
    });
    const unpriced = await readAppFeeBalances(database.pool, { ...deps, prices: createStaticPriceSource({}) }, wallet);
    expect(unpriced.balances[0].amountUsd).toBe("0");
    await expect(readAppFeeBalances(database.pool, deps, "0x12")).rejects.toMatchObject({
      errorCode: "INVALID_ADDRESS",
    });
  });
});
