import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devnetExchangeChain } from "../../../devnet/hypevm/devnetExchangeChain.js";
import { type DevnetExchange, startDevnetExchange } from "../../../devnet/hypevm/startDevnetExchange.js";
import { hypevmChainConfigSchema } from "./hypevmChainFamily.js";
import { PERPS_USDC_CURRENCY } from "./hypevmFamily.js";
import { sendAssetTo } from "./sendAssetTo.js";
import { SEND_ASSET_TYPES } from "./sendAssetTypes.js";
import { signExchangeAction } from "./signExchangeAction.js";

describe("sendAssetTo", () => {
  let exchange: DevnetExchange;
  beforeAll(async () => {
    exchange = await startDevnetExchange();
  });
  afterAll(() => exchange?.stop());

  const post = (body: unknown) =>
    fetch(`${exchange.url}/exchange`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }).then((res) => res.json());

  it("pays perps USDC and a spot token from the solver to an address the exchange has never seen, once", async () => {
    const chain = hypevmChainConfigSchema.parse(devnetExchangeChain(exchange));
    const recipient = "0x00000000000000000000000000000000000C0FFE";
    const hype = exchange.tokens[1]!;
    const nonce = Date.now();
    const pay = (currency: string, amount: bigint, n: number) =>
      sendAssetTo({
        recipient,
        currency,
        amount,
        currencies: chain.currencies,
        network: chain.network,
        nonce: n,
        signatureChainId: 42161,
      })!;

    const usdc = pay(PERPS_USDC_CURRENCY, 123_456_789n, nonce);
    expect(usdc).toMatchObject({ sourceDex: "", destinationDex: "", token: `USDC:${exchange.tokens[0]!.tokenId}` });
    expect(usdc.amount).toBe("1.23456789");
    const signed = await signExchangeAction(exchange.solver, usdc, SEND_ASSET_TYPES);
    expect(await post(signed)).toEqual({ status: "ok", response: { type: "default" } });
    expect(await post(signed)).toMatchObject({ status: "err", response: /duplicate nonce/ });
    expect(exchange.ledger.perpsBalance(recipient)).toBe(123_456_789n);

    const spot = pay(hype.tokenId, 5n * 10n ** 7n, nonce + 1);
    expect(spot).toMatchObject({
      sourceDex: "spot",
      destinationDex: "spot",
      token: `HYPE:${hype.tokenId}`,
      amount: "0.5",
    });
    expect(await post(await signExchangeAction(exchange.solver, spot, SEND_ASSET_TYPES))).toMatchObject({
      status: "ok",
    });
    expect(exchange.ledger.spotBalances(recipient).map((b) => [b.token.name, b.amount])).toEqual([
      ["HYPE", 50_000_000n],
    ]);
    // The recipient's ledger names each transfer with its nonce, as the poller of a destination would read it.
    expect(exchange.ledger.updates(recipient).map((u) => u.delta.nonce)).toEqual([nonce, nonce + 1]);
  });

  it("knows no currency the chain does not list", () => {
    const chain = hypevmChainConfigSchema.parse(devnetExchangeChain(exchange));
    const base = {
      recipient: exchange.accounts[0]!.address,
      amount: 1n,
      network: chain.network,
      nonce: 1,
      signatureChainId: 1,
    };
    expect(sendAssetTo({ ...base, currency: `0x${"12".repeat(16)}`, currencies: chain.currencies })).toBeUndefined();
    expect(sendAssetTo({ ...base, currency: "not an id", currencies: chain.currencies })).toBeUndefined();
    // Without spot USDC listed, perps USDC cannot be named.
    expect(sendAssetTo({ ...base, currency: PERPS_USDC_CURRENCY, currencies: [] })).toBeUndefined();
  });
});
