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

describe("createHypevmAdapter's estimateFee", () => {
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

  it("quotes a fill at what the exchange charges for a new recipient, a deposit and a refund at what it charges known ones", async () => {
    const chain = hypevmChainConfigSchema.parse(devnetExchangeChain(exchange));
    const adapter = createHypevmAdapter(chain, { orderOf: async () => undefined });
    const fresh = privateKeyToAccount(generatePrivateKey()).address;
    // A fill may pay an account the exchange has never seen: the solver pays its activation.
    expect(await adapter.estimateFee("fill", PERPS_USDC_CURRENCY)).toBe(await costOf(exchange.solver, fresh, 5n));
    // A refund pays the depositor back (an account that signed a transfer), a deposit pays the depository.
    exchange.ledger.fund(exchange.depository.address, { perpsUsdc: 100n });
    const depositor = exchange.accounts[0]!;
    expect(await adapter.estimateFee("refund", PERPS_USDC_CURRENCY)).toBe(
      await costOf(exchange.depository, depositor.address, 5n),
    );
    expect(await adapter.estimateFee("deposit", PERPS_USDC_CURRENCY)).toBe(
      await costOf(depositor, exchange.depository.address, 5n),
    );
  });
});
