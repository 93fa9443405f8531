import { zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import { recordRequestDeposit } from "../schema/requestDeposits.js";
import { withTransaction } from "../schema/withTransaction.js";
import { chainConfigSchema } from "../src/chains/chainConfig.js";
import { createChainRegistry } from "../src/chains/chainRegistry.js";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { creditEarnedAppFees } from "./creditEarnedAppFees.js";

const registry = createChainRegistry([
  chainConfigSchema.parse({
    id: 31338,
    name: "a",
    rpcUrl: "http://127.0.0.1:1",
    depository: "0x00000000000000000000000000000000000000d0",
    receiver: "0x00000000000000000000000000000000000000e0",
  }),
]);
const appFees = [{ recipient: "0xAa", bps: "100", amount: "10", amountFormatted: "", amountUsd: "0.00003" }];

describe("creditEarnedAppFees", () => {
  const database = useMigratedDatabase();
  const earnings = async (requestId: string) =>
    (
      await database.pool.query(
        "SELECT recipient, amount::text FROM crossfill.app_fee_earnings WHERE request_id = $1",
        [requestId],
      )
    ).rows;

  it("credits what an exact output earned as quoted, once, and nothing for a request without app fees", async () => {
    const request = await insertTestRequest(database.pool, { tradeType: "EXACT_OUTPUT", quote: { appFees } });
    await withTransaction(database.pool, (db) =>
      recordRequestDeposit(db, {
        requestId: request.id,
        chainId: 31338,
        txHash: `0x${"01".repeat(32)}`,
        position: 0,
        blockHash: "0xb",
        orderId: request.orderId,
        depositor: "0xabc",
        currency: zeroAddress,
        amount: 5000n,
        blockNumber: 1n,
        timestamp: 1n,
        txFrom: "0xabc",
        txFee: 1n,
      }),
    );
    expect(await creditEarnedAppFees(database.pool, request.id, registry)).toBe(1);
    expect(await creditEarnedAppFees(database.pool, request.id, registry)).toBe(0);
    expect(await earnings(request.id)).toEqual([{ recipient: "0xaa", amount: "10" }]);
    const plain = await insertTestRequest(database.pool);
    expect(await creditEarnedAppFees(database.pool, plain.id, registry)).toBe(0);
    expect(await creditEarnedAppFees(database.pool, "0xunknown", registry)).toBe(0);
  });
});
