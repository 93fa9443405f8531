import { prepareHyperliquidSteps } from "@relayprotocol/relay-sdk";
import { type Hex, parseSignature, verifyTypedData } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devnetExchangeTokens, tokenSpec } from "../../../devnet/hypevm/exchangeTokens.js";
import { type DevnetExchange, startDevnetExchange } from "../../../devnet/hypevm/startDevnetExchange.js";
import { exchangeLedgerSource } from "../../../indexers/hypevm/exchangeLedgerSource.js";
import { nonceMappingTypedData } from "../../domain/nonceMappingTypedData.js";
import { createExchangeApi } from "./exchangeApi.js";
import { PERPS_USDC_CURRENCY } from "./hypevmFamily.js";
import { withdrawalSteps } from "./withdrawalSteps.js";

const requestId = `0x${"ab".repeat(32)}` as Hex;
const orderId = `0x${"cd".repeat(32)}` as Hex;
/** The chain a wallet is on when it signs: the official client signs both steps on it. */
const activeChainId = 42161;

describe("withdrawalSteps", () => {
  let exchange: DevnetExchange;
  beforeAll(async () => {
    exchange = await startDevnetExchange();
  });
  afterAll(() => exchange?.stop());

  const stepsFor = (nonce: number) => {
    const user = exchange.accounts[0]!;
    return withdrawalSteps({
      requestId,
      orderId,
      wallet: user.address,
      depositor: user.address,
      depository: exchange.depository.address,
      network: exchange.network,
      token: tokenSpec(devnetExchangeTokens[0]!),
      dex: "",
      amount: 2_550_000_000n,
      decimals: 8,
      nonce,
    });
  };

  it("lays out the spec's two steps with one nonce, no check on the authorize item", () => {
    const nonce = Date.now();
    const [authorize, deposit] = stepsFor(nonce);
    expect(authorize.kind).toBe("signature");
    expect(authorize.items[0]).not.toHaveProperty("check");
    expect(authorize.items[0]!.data.sign.domain).toMatchObject({ version: "2", chainId: 1 });
    expect(authorize.items[0]!.data.post.body).toMatchObject({
      nonce: String(nonce),
      id: orderId,
      signatureChainId: 1,
    });
    expect(deposit.items[0]!.data).toMatchObject({
      nonce,
      action: {
        type: "sendAsset",
        parameters: { destination: exchange.depository.address.toLowerCase(), amount: "25.5", nonce, sourceDex: "" },
      },
      eip712PrimaryType: "HyperliquidTransaction:SendAsset",
    });
  });

  it("goes through the official client's step handling and the devnet exchange, and the poller maps it", async () => {
    const user = exchange.accounts[0]!;
    const nonce = Date.now();
    // What the official client makes of the quote's steps on the wallet's active chain.
    const [authorize, deposit] = prepareHyperliquidSteps(stepsFor(nonce) as never, activeChainId) as any[];
    const authorizeItem = authorize.items[0].data;
    expect(authorizeItem.post.body.signatureChainId).toBe(activeChainId);
    const authorization = await user.signTypedData({ ...authorizeItem.sign, message: authorizeItem.sign.value });
    // The service checks it as /authorize does: the typed data rebuilt from the posted body.
    const body = authorizeItem.post.body;
    const rebuilt = nonceMappingTypedData(
      { wallet: body.wallet, depositor: body.depositor, nonce: BigInt(body.nonce), id: body.id },
      body.signatureChainId,
    );
    expect(await verifyTypedData({ ...rebuilt, address: user.address, signature: authorization })).toBe(true);

    // The exchange step, signed and posted exactly as the client does, but to the devnet exchange.
    const sign = deposit.items[0].data.sign;
    expect(sign.domain).toMatchObject({ name: "HyperliquidSignTransaction", chainId: activeChainId });
    const { r, s, v } = parseSignature(await user.signTypedData({ ...sign, message: sign.value }));
    const action = sign.value;
    const posted = await fetch(`${exchange.url}/exchange`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ signature: { r, s, v: Number(v) }, nonce: action.nonce ?? action.time, action }),
    }).then((res) => res.json());
    expect(posted).toEqual({ status: "ok", response: { type: "default" } });
    expect(exchange.ledger.perpsBalance(exchange.depository.address)).toBe(2_550_000_000n);

    // The depository's poller reads it as a deposit of perps USDC, matched to the order through (signer, nonce).
    const source = exchangeLedgerSource({
      api: createExchangeApi({ chainId: 1337, exchangeUrl: exchange.url }),
      depository: exchange.depository.address,
      startTimeMs: nonce - 60_000,
      orderOf: async (sender, n) =>
        sender.toLowerCase() === body.depositor.toLowerCase() && n === BigInt(body.nonce) ? body.id : undefined,
    });
    const page = await source.read(undefined, new AbortController().signal);
    expect("facts" in page && page.facts.deposits).toMatchObject([
      { depositor: user.address.toLowerCase(), currency: PERPS_USDC_CURRENCY, amount: 2_550_000_000n, orderId },
    ]);

    // The same signed transfer again is refused: a withdrawal is never paid twice.
    const replay = await fetch(`${exchange.url}/exchange`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ signature: { r, s, v: Number(v) }, nonce: action.nonce, action }),
    }).then((res) => res.json());
    expect(replay).toEqual({ status: "err", response: `Invalid nonce: duplicate nonce ${nonce}` });
  });
});
