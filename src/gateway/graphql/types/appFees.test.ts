import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeAppFeeClaim } from "../../../../schema/appFeeClaims.js";
import { creditAppFees } from "../../../../schema/appFeeLedger.js";
import { withTransaction } from "../../../../schema/withTransaction.js";
import { TEST_USDC, createTestGraphqlServer } from "../../../../test/support/createTestGraphqlServer.js";
import { insertTestRequest } from "../../../../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../../../../test/support/useMigratedDatabase.js";
import { createStatusBus } from "../../../events/createStatusBus.js";
import { createStatusFanout } from "../../../events/createStatusFanout.js";

const wallet = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

describe("GraphQL appFeeBalances and appFeeClaims", () => {
  const database = useMigratedDatabase();
  const bus = createStatusBus();
  let server: ReturnType<typeof createTestGraphqlServer>;
  beforeAll(async () => {
    server = createTestGraphqlServer({ db: database.pool, statusUpdates: createStatusFanout(bus) });
    const request = await insertTestRequest(database.pool);
    const fee = { recipient: wallet, bps: "10", amount: "3000000", amountFormatted: "3", amountUsd: "3" };
    await creditAppFees(database.pool, { requestId: request.id, chainId: 31338, currency: TEST_USDC, fees: [fee] });
    const claim = {
      id: `0x${"ab".repeat(32)}`,
      wallet,
      chainId: 31338,
      currency: TEST_USDC,
      recipient: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
      amount: 1_000_000n,
      signature: "0x",
    };
    await withTransaction(database.pool, (db) => writeAppFeeClaim(db, claim));
  });
  afterAll(async () => {
    await server?.close();
    await bus.close();
  });
  const query = async (text: string) =>
    (
      await server.fetch(
        new Request("http://localhost/graphql", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query: text }),
        }),
      )
    ).json();

  it("shows what the wallet can claim and the claims it made, as the REST routes do", async () => {
    expect(
      await query(`{ appFeeBalances(wallet: "${wallet.toLowerCase()}") {
        balances { amount amountUsd currency { chainId symbol } } totalBalanceUsd availableBalanceUsd }
        appFeeClaims(wallet: "${wallet}") { claimId chainId amount recipient status txHash attempts nextAttemptAt reason currency { symbol } } }`),
    ).toEqual({
      data: {
        appFeeBalances: {
          balances: [{ amount: "2000000", amountUsd: "2", currency: { chainId: 31338, symbol: "USDC" } }],
          totalBalanceUsd: 2,
          availableBalanceUsd: 2,
        },
        appFeeClaims: [
          {
            claimId: `0x${"ab".repeat(32)}`,
            chainId: 31338,
            amount: "1000000",
            recipient: "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc",
            status: "queued",
            txHash: null,
            attempts: 0,
            nextAttemptAt: null,
            reason: null,
            currency: { symbol: "USDC" },
          },
        ],
      },
    });
    const refused = await query(`{ appFeeClaims(wallet: "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh") { claimId } }`);
    expect(refused.errors[0].extensions.code).toBe("INVALID_ADDRESS");
  });
});
