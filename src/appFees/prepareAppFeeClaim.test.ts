import { zeroAddress } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import { creditAppFees } from "../../schema/appFeeLedger.js";
import { insertTestRequest } from "../../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../../test/support/useMigratedDatabase.js";
import { APP_FEE_TEST_USDC, appFeeTestRegistry } from "../../test/support/appFeeTestChains.js";
import { TEST_BITCOIN_CHAIN } from "../../test/support/testBitcoinChain.js";
import { prepareAppFeeClaim } from "./prepareAppFeeClaim.js";

const wallet = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const usdc = APP_FEE_TEST_USDC;

describe("prepareAppFeeClaim", () => {
  const database = useMigratedDatabase();
  beforeAll(async () => {
    const request = await insertTestRequest(database.pool);
    const fee = { recipient: wallet, bps: "10", amount: "2500000", amountFormatted: "2.5", amountUsd: "2.5" };
    await creditAppFees(database.pool, { requestId: request.id, chainId: 10, currency: usdc, fees: [fee] });
  });
  const prepare = (input: Partial<Parameters<typeof prepareAppFeeClaim>[2]>) =>
    prepareAppFeeClaim(
      database.pool,
      appFeeTestRegistry,
      { wallet, chainId: 10, currency: usdc, ...input },
      1_700_000_000_000,
    );

  it("answers one EIP-712 signature step for the whole balance by default, posted back to execute", async () => {
    const { steps } = await prepare({});
    expect(steps).toHaveLength(1);
    const [step] = steps;
    expect(step).toMatchObject({ id: "claim", kind: "signature", requestId: step.items[0].data.sign.value.id });
    const { sign, post } = step.items[0].data;
    expect(sign).toMatchObject({ signatureKind: "eip712", primaryType: "AppFeeClaim" });
    expect(sign.domain).toEqual({ name: "CrossfillAppFeeClaim", version: "1", chainId: 10 });
    expect(sign.value).toEqual({
      id: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      wallet,
      chainId: "10",
      currency: usdc,
      recipient: wallet,
      amount: "2500000",
      deadline: "1700000600",
    });
    expect(post).toEqual({ endpoint: `/app-fees/${wallet}/claim/execute`, method: "POST", body: sign.value });
    // A fresh id each time: every claim step can pay at most once.
    const again = await prepare({ amount: 1n, recipient: zeroAddress.replace(/0$/, "1") });
    expect(again.steps[0].items[0].data.sign.value).toMatchObject({
      amount: "1",
      recipient: "0x0000000000000000000000000000000000000001",
    });
    expect(again.steps[0].requestId).not.toBe(step.requestId);
  });

  it("refuses more than the balance, nothing, other chains and currencies, and non-EVM addresses", async () => {
    const refusal = (input: Partial<Parameters<typeof prepareAppFeeClaim>[2]>) =>
      prepare(input).then(
        () => undefined,
        (error) => error.errorCode,
      );
    expect(await refusal({ amount: 2_500_001n })).toBe("INSUFFICIENT_FUNDS");
    expect(await refusal({ amount: 0n })).toBe("INSUFFICIENT_FUNDS");
    expect(await refusal({ wallet: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC" })).toBe("INSUFFICIENT_FUNDS");
    expect(await refusal({ chainId: 99 })).toBe("UNSUPPORTED_CHAIN");
    expect(await refusal({ chainId: TEST_BITCOIN_CHAIN.id })).toBe("UNSUPPORTED_CHAIN");
    expect(await refusal({ currency: "0x00000000000000000000000000000000000000c2" })).toBe("UNSUPPORTED_CURRENCY");
    expect(await refusal({ wallet: "0x123" })).toBe("INVALID_ADDRESS");
    expect(await refusal({ recipient: "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh" })).toBe("INVALID_ADDRESS");
  });
});
