import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { appFeeBalances } from "../../schema/appFeeClaims.js";
import { creditAppFees } from "../../schema/appFeeLedger.js";
import { APP_FEE_TEST_USDC, appFeeTestRegistry } from "../../test/support/appFeeTestChains.js";
import { insertTestRequest } from "../../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../../test/support/useMigratedDatabase.js";
import { type AppFeeClaimMessage, appFeeClaimTypedData } from "../domain/appFeeClaimTypedData.js";
import { executeAppFeeClaim } from "./executeAppFeeClaim.js";

const owner = privateKeyToAccount(generatePrivateKey());
const other = privateKeyToAccount(generatePrivateKey());
const NOW = 1_700_000_000_000;
let next = 0;
const message = (overrides: Partial<AppFeeClaimMessage> = {}): AppFeeClaimMessage => ({
  id: `0x${(++next).toString(16).padStart(64, "0")}` as Hex,
  wallet: owner.address,
  chainId: 10n,
  currency: APP_FEE_TEST_USDC,
  recipient: other.address,
  amount: 600n,
  deadline: BigInt(NOW / 1000 + 60),
  ...overrides,
});

describe("executeAppFeeClaim", () => {
  const database = useMigratedDatabase();
  beforeAll(async () => {
    const request = await insertTestRequest(database.pool);
    const fee = { recipient: owner.address, bps: "10", amount: "1000", amountFormatted: "", amountUsd: "0" };
    await creditAppFees(database.pool, {
      requestId: request.id,
      chainId: 10,
      currency: APP_FEE_TEST_USDC,
      fees: [fee],
    });
  });
  const run = async (claim: AppFeeClaimMessage, signer = owner, pathWallet: string = owner.address) =>
    executeAppFeeClaim(
      database.pool,
      appFeeTestRegistry,
      { pathWallet, message: claim, signature: await signer.signTypedData(appFeeClaimTypedData(claim)) },
      NOW,
    );
  const codeOf = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error) => error.errorCode,
    );

  it("writes the wallet's own signed claim once; the same signature again answers it and spends nothing more", async () => {
    const claim = message();
    const signature = await owner.signTypedData(appFeeClaimTypedData(claim));
    const input = { pathWallet: owner.address, message: claim, signature };
    const first = await executeAppFeeClaim(database.pool, appFeeTestRegistry, input, NOW);
    expect(first).toMatchObject({ created: true, claim: { amount: 600n, status: "queued" } });
    expect(first.claim.recipient).toBe(other.address.toLowerCase());
    const again = await executeAppFeeClaim(database.pool, appFeeTestRegistry, input, NOW + 10_000_000);
    expect(again).toMatchObject({ created: false, claim: { id: claim.id } });
    expect((await appFeeBalances(database.pool, owner.address))[0].amount).toBe(400n);
  });

  it("refuses someone else's signature, another wallet's path, an expired deadline and more than is left", async () => {
    expect(await codeOf(run(message({ amount: 1n }), other))).toBe("INVALID_SIGNATURE");
    expect(await codeOf(run(message({ amount: 1n }), owner, other.address))).toBe("INVALID_INPUT");
    expect(await codeOf(run(message({ amount: 1n, deadline: BigInt(NOW / 1000 - 1) })))).toBe("INVALID_SIGNATURE");
    expect(await codeOf(run(message({ amount: 401n })))).toBe("INSUFFICIENT_FUNDS");
    expect(await codeOf(run(message({ chainId: 11n })))).toBe("UNSUPPORTED_CHAIN");
    expect((await appFeeBalances(database.pool, owner.address))[0].amount).toBe(400n);
  });
});
