import type { Address } from "viem";
import { expect } from "vitest";
import { hypevmFactories } from "../apps/families/hypevmFactories.js";
import { devnetExchangeChain } from "../devnet/hypevm/devnetExchangeChain.js";
import type { DevnetExchange } from "../devnet/hypevm/startDevnetExchange.js";
import { parseExchangeTransferId } from "../src/chains/hypevm/exchangeTransferId.js";
import { hypevmChainConfigSchema } from "../src/chains/hypevm/hypevmChainFamily.js";
import { PERPS_USDC_CURRENCY } from "../src/chains/hypevm/hypevmFamily.js";
import { SEND_ASSET_TYPES } from "../src/chains/hypevm/sendAssetTypes.js";
import { sendAssetTo } from "../src/chains/hypevm/sendAssetTo.js";
import { signExchangeAction } from "../src/chains/hypevm/signExchangeAction.js";
import { describeIndexMissedSettlements } from "./support/indexMissedSettlementsCase.js";
import type { TestStack } from "./support/startTestStack.js";

type Signer = DevnetExchange["accounts"][number];

const exchange = (stack: TestStack) => stack.devnetOf(hypevmFactories)!;
const evmUsdc = (stack: TestStack) =>
  stack.devnet.chains[0].currencies.find((currency) => currency.symbol === "USDC")!.address as Address;
/** Posts a signed action to the devnet exchange; its ledger names the transfer it committed. */
const submit = async (stack: TestStack, user: Signer, signed: unknown) => {
  const answer = await fetch(`${exchange(stack).url}/exchange`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(signed),
  }).then((res) => res.json());
  expect(answer).toEqual({ status: "ok", response: { type: "default" } });
  return exchange(stack).ledger.updates(user.address).at(-1)!.hash;
};

describeIndexMissedSettlements({
  name: "perps exchange",
  stackOptions: { exchange: true },
  chainId: () => 1337,
  hashesLikeEvm: true,
  fillQuote: (stack) => ({
    destinationChainId: 1337,
    originCurrency: evmUsdc(stack),
    destinationCurrency: PERPS_USDC_CURRENCY,
    amount: "25000000",
    recipient: exchange(stack).accounts[2]!.address,
  }),
  refundQuote: (stack) => ({
    user: exchange(stack).accounts[0]!.address,
    originChainId: 1337,
    originCurrency: PERPS_USDC_CURRENCY,
    destinationCurrency: evmUsdc(stack),
    amount: "1000000000",
    protocolVersion: "v2",
  }),
  // The authorize step (the nonce mapping), then the user's sendAsset to the depository under that nonce.
  async deposit(stack, quote) {
    const user = exchange(stack).accounts[0]!;
    const { sign, post } = quote.steps[0].items[0].data;
    const signature = await user.signTypedData({ ...sign, message: sign.value });
    const authorized = await fetch(`${stack.api.url}${post.endpoint}?signature=${signature}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(post.body),
    });
    expect(authorized.status).toBe(200);
    const { parameters } = quote.steps[1].items[0].data.action;
    const signed = await signExchangeAction(
      user,
      { type: "sendAsset", signatureChainId: "0xa4b1", ...parameters },
      SEND_ASSET_TYPES,
    );
    return submit(stack, user, signed);
  },
  settle: async () => {},
  // Another account pays the recipient the fill's amount: the ledger names no request, and it is no stored fill.
  async forgedFill(stack, quote) {
    const stranger = exchange(stack).accounts[3]!;
    const chain = hypevmChainConfigSchema.parse(devnetExchangeChain(exchange(stack)));
    const action = sendAssetTo({
      recipient: exchange(stack).accounts[2]!.address,
      currency: PERPS_USDC_CURRENCY,
      amount: BigInt(quote.details.currencyOut.amount),
      currencies: chain.currencies,
      network: chain.network,
      nonce: Date.now(),
      signatureChainId: 42161,
    })!;
    return submit(stack, stranger, await signExchangeAction(stranger, action, SEND_ASSET_TYPES));
  },
  namedByChain: (txHash) => parseExchangeTransferId(txHash) === undefined,
  // The solver's transfer with the stored nonce, in its ledger (stored under the exchange's hash once it is read).
  chainHashOf(stack, stored) {
    const ours = parseExchangeTransferId(stored);
    const found =
      ours &&
      exchange(stack)
        .ledger.updates(ours.signer)
        .find((update) => update.delta.nonce === ours.nonce);
    return found?.hash ?? stored;
  },
  // A 32-byte hash like the exchange's: the EVM deposit's, sent with the exchange.
  wrongChain: (_stack, { evmDeposit }) => [{ txHash: evmDeposit, chainId: 1337 }],
});
