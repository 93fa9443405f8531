import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devnetAggregatorArtifact } from "../../contracts/artifacts.js";
import { aggregatorRoundReader } from "../../src/chains/evm/aggregatorRoundReader.js";
import { createAggregatorPriceFeed } from "../../src/pricing/aggregator/createAggregatorPriceFeed.js";
import { devnetAccounts } from "../devnetAccounts.js";
import { type DevnetWalletClient, devnetWalletClient } from "../devnetWalletClient.js";
import { freePort } from "../freePort.js";
import { type AnvilInstance, startAnvil } from "../startAnvil.js";
import { aggregatorRoundPoster } from "./aggregatorRoundPoster.js";
import { DEVNET_PRICE_EXPO, createDevnetPriceBook } from "./devnetPriceBook.js";

const signal = () => new AbortController().signal;

describe("aggregatorRoundPoster", () => {
  let anvil: AnvilInstance;
  let owner: DevnetWalletClient;
  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 31365, port: await freePort(), blockTime: 0 });
    owner = devnetWalletClient({
      rpcUrl: anvil.rpcUrl,
      chainId: anvil.chainId,
      privateKey: devnetAccounts().solver.privateKey,
    });
  });
  afterAll(() => anvil?.stop());

  it("posts the book's prices as rounds that price like Hermes; a frozen feed gets no round and goes stale", async () => {
    const clock = { now: 1_800_000_000_000 };
    const book = createDevnetPriceBook(() => clock.now);
    const deploy = async () => {
      const hash = await owner.deployContract({ ...devnetAggregatorArtifact, args: [-DEVNET_PRICE_EXPO] });
      return (await owner.waitForTransactionReceipt({ hash })).contractAddress! as Address;
    };
    const aggregators = { ETH: await deploy(), BTC: await deploy() };
    const poster = aggregatorRoundPoster({ book, owner, aggregators });
    book.set("ETH", "3012.5");
    book.set("BTC", "97000");
    expect((await poster.post()).sort()).toEqual(["BTC", "ETH"]);
    // Nothing published since: no new rounds.
    expect(await poster.post()).toEqual([]);
    const feed = createAggregatorPriceFeed({
      aggregators,
      readRound: aggregatorRoundReader(owner),
      now: () => clock.now,
    });
    const first = await feed.fetch(["ETH", "BTC"], signal());
    expect(first.get("ETH")).toEqual({ priceE18: 30125n * 10n ** 17n, observedAt: clock.now, source: "aggregator" });
    expect(first.get("BTC")?.priceE18).toBe(97_000n * 10n ** 18n);

    book.freeze("BTC", true);
    clock.now += 30_000;
    book.set("ETH", "3100");
    book.set("BTC", "1");
    expect(await poster.post()).toEqual(["ETH"]);
    const second = await feed.fetch(["ETH", "BTC"], signal());
    expect(second.get("ETH")).toEqual({ priceE18: 3100n * 10n ** 18n, observedAt: clock.now, source: "aggregator" });
    expect(second.get("BTC")).toEqual({ ...first.get("BTC"), observedAt: clock.now - 30_000 });
  });
});
