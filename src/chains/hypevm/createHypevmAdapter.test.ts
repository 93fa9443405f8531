import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devnetExchangeChain } from "../../../devnet/hypevm/devnetExchangeChain.js";
import { type DevnetExchange, startDevnetExchange } from "../../../devnet/hypevm/startDevnetExchange.js";
import { createHypevmAdapter } from "./createHypevmAdapter.js";
import { hypevmChainConfigSchema } from "./hypevmChainFamily.js";
import { PERPS_USDC_CURRENCY } from "./hypevmFamily.js";
import { SEND_ASSET_TYPES } from "./sendAssetTypes.js";
import { sendAssetTo } from "./sendAssetTo.js";
import { signExchangeAction } from "./signExchangeAction.js";

describe("createHypevmAdapter's transfer costs", () => {
  let exchange: DevnetExchange;
  beforeAll(async () => {
    exchange = await startDevnetExchange();
  });
  afterAll(() => exchange?.stop());

  /** The perps USDC a signer's transfer of `amount` to `recipient` actually cost it on the devnet exchange. */
  const costOf = async (signer: DevnetExchange["solver"], recipient: string, amount: bigint) => {
    const chain = hypevmChainConfigSchema.parse(devnetExchangeChain(exchange));
    const action = sendAssetTo({
      recipient,
      currency: PERPS_USDC_CURRENCY,
      amount,
      currencies: chain.currencies,
      network: chain.network,
      nonce: Date.now(),
      signatureChainId: 42161,
    })!;
    const before = exchange.ledger.perpsBalance(signer.address);
    expect(await exchange.ledger.submit(await signExchangeAction(signer, action, SEND_ASSET_TYPES))).toMatchObject({
      status: "ok",
    });
    return before - exchange.ledger.perpsBalance(signer.address) - amount;
  };

  /** What the adapter charges for a transfer to `recipient`: the operation's network fee and the payout's rent. */
  const chargedFor = async (
    adapter: ReturnType<typeof createHypevmAdapter>,
    operation: "deposit" | "fill" | "refund",
    recipient: string,
  ) =>
    (await adapter.estimateFee(operation, PERPS_USDC_CURRENCY)) +
    (await adapter.payoutRent!(PERPS_USDC_CURRENCY, recipient));

  it("charges a transfer what the exchange takes for it: the activation fee to a new account, nothing to a known one", async () => {
    const chain = hypevmChainConfigSchema.parse(devnetExchangeChain(exchange));
    const adapter = createHypevmAdapter(chain, { orderOf: async () => undefined });
    const fresh = privateKeyToAccount(generatePrivateKey()).address;
    const charged = await chargedFor(adapter, "fill", fresh);
    expect(charged).toBe(100_000_000n);
    expect(charged).toBe(await costOf(exchange.solver, fresh, 5n));
    // The account exists now: paying it again costs nothing.
    expect(await chargedFor(adapter, "fill", fresh)).toBe(await costOf(exchange.solver, fresh, 5n));
    exchange.ledger.fund(exchange.depository.address, { perpsUsdc: 100n });
    const depositor = exchange.accounts[0]!;
    expect(await chargedFor(adapter, "refund", depositor.address)).toBe(
      await costOf(exchange.depository, depositor.address, 5n),
    );
    expect(await chargedFor(adapter, "deposit", exchange.depository.address)).toBe(
      await costOf(depositor, exchange.depository.address, 5n),
    );
  });

  it("asks the exchange about an account until it exists, then no more", async () => {
    const own = await startDevnetExchange();
    const adapter = createHypevmAdapter(hypevmChainConfigSchema.parse(devnetExchangeChain(own)), {
      orderOf: async () => undefined,
    });
    const known = own.accounts[0]!.address;
    const fresh = privateKeyToAccount(generatePrivateKey()).address;
    expect(await adapter.payoutRent!(PERPS_USDC_CURRENCY, known)).toBe(0n);
    expect(await adapter.payoutRent!(PERPS_USDC_CURRENCY, fresh)).toBe(100_000_000n);
    await own.stop();
    // With the exchange gone, the account seen to exist still costs nothing; the missing one must be asked again.
    expect(await adapter.payoutRent!(PERPS_USDC_CURRENCY, known.toLowerCase())).toBe(0n);
    await expect(adapter.payoutRent!(PERPS_USDC_CURRENCY, fresh)).rejects.toThrow(/exchange/);
  });

  it("refuses a fill or a refund whose sender holds the amount but not the activation fee of a new recipient", async () => {
    const poor = await startDevnetExchange();
    try {
      const poorChain = hypevmChainConfigSchema.parse(devnetExchangeChain(poor));
      const depositoryHolds = poor.ledger.perpsBalance(poor.depository.address);
      const solverHolds = poor.ledger.perpsBalance(poor.solver.address);
      const adapter = createHypevmAdapter(poorChain, {
        orderOf: async () => undefined,
        depository: poor.depository,
        solver: poor.solver,
      });
      const fresh = privateKeyToAccount(generatePrivateKey()).address;
      const known = poor.accounts[0]!.address;
      const refund = (recipient: string, amount: bigint, chargedRent?: bigint) =>
        adapter.prepareRefund({
          orderId: `0x${"11".repeat(32)}`,
          currency: PERPS_USDC_CURRENCY,
          recipient,
          amount,
          deposit: { txHash: `0x${"22".repeat(32)}`, position: 0 },
          chargedRent,
        });
      const fee = 100_000_000n;
      // All it holds to a known account; to a new one, only with the fee charged and room for it beside the amount.
      expect(await refund(known, depositoryHolds)).toHaveProperty("transaction");
      expect(await refund(fresh, 5n)).toMatchObject({
        refusal: expect.stringMatching(/activation fee .* not charged/),
      });
      expect(await refund(fresh, depositoryHolds, fee)).toMatchObject({
        refusal: expect.stringMatching(/pays the activation fee/),
      });
      expect(await refund(fresh, depositoryHolds - fee, fee)).toHaveProperty("transaction");
      const order = (recipient: string, amount: bigint, quotedRent?: bigint) => ({
        requestId: `0x${"33".repeat(32)}`,
        orderId: `0x${"33".repeat(32)}`,
        currency: PERPS_USDC_CURRENCY,
        currencySymbol: "USDC",
        amount,
        recipient,
        calls: [],
        quotedRent,
      });
      const failReasonOf = async (filled: ReturnType<typeof order>) => {
        const prepared = await adapter.prepareFill(filled);
        const simulated = await adapter.simulateFill(filled);
        const reason = "refusal" in prepared ? prepared.refusal.failure.failReason : undefined;
        expect(simulated.refusal?.failure.failReason).toBe(reason);
        return reason;
      };
      expect(await failReasonOf(order(fresh, 5n))).toBe("NEW_CALLDATA_INCLUDES_HIGHER_RENT_FEE");
      expect(await failReasonOf(order(fresh, solverHolds, fee))).toBe("SOLVER_BALANCE_TOO_LOW");
      expect(await failReasonOf(order(fresh, solverHolds - fee, fee))).toBeUndefined();
      expect(await failReasonOf(order(known, solverHolds))).toBeUndefined();
    } finally {
      await poor.stop();
    }
  });
});
