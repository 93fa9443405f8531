import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devnetAggregatorArtifact } from "../contracts/artifacts.js";
import { devnetAccounts } from "../devnet/devnetAccounts.js";
import { type DevnetWalletClient, devnetWalletClient } from "../devnet/devnetWalletClient.js";
import { freePort } from "../devnet/freePort.js";
import { aggregatorRoundPoster } from "../devnet/prices/aggregatorRoundPoster.js";
import { DEVNET_FEED_IDS } from "../devnet/prices/devnetPriceFeeds.js";
import { DEVNET_PRICE_EXPO } from "../devnet/prices/devnetPriceBook.js";
import { type DevnetHermes, startDevnetHermes } from "../devnet/prices/startDevnetHermes.js";
import { type AnvilInstance, startAnvil } from "../devnet/startAnvil.js";
import { aggregatorRoundReader } from "../src/chains/evm/aggregatorRoundReader.js";
import { createAggregatorPriceFeed } from "../src/pricing/aggregator/createAggregatorPriceFeed.js";
import { createPriceChain } from "../src/pricing/createPriceChain.js";
import { createPythPriceFeed } from "../src/pricing/pyth/createPythPriceFeed.js";

// The deviation guard with two real sources: the devnet's Hermes and a DevnetAggregator on anvil fed by the same book.
describe("price layer over devnet Hermes and an on-chain aggregator", () => {
  let anvil: AnvilInstance;
  let hermes: DevnetHermes;
  let owner: DevnetWalletClient;
  beforeAll(async () => {
    [anvil, hermes] = await Promise.all([
      startAnvil({ chainId: 31366, port: await freePort(), blockTime: 0 }),
      startDevnetHermes({ walkBps: 0 }),
    ]);
    owner = devnetWalletClient({
      rpcUrl: anvil.rpcUrl,
      chainId: anvil.chainId,
      privateKey: devnetAccounts().solver.privateKey,
    });
  });
  afterAll(async () => {
    await hermes?.stop();
    await anvil?.stop();
  });

  it("attack: an aggregator pushed far from Hermes makes ETH suspect and refused; agreeing again, it quotes", async () => {
    const hash = await owner.deployContract({ ...devnetAggregatorArtifact, args: [-DEVNET_PRICE_EXPO] });
    const aggregator = (await owner.waitForTransactionReceipt({ hash })).contractAddress! as Address;
    const poster = aggregatorRoundPoster({ book: hermes.book, owner, aggregators: { ETH: aggregator } });
    const chain = createPriceChain({
      feeds: [
        createPythPriceFeed({ hermesUrl: hermes.hermesUrl, feedIds: DEVNET_FEED_IDS, maxConfidenceBps: 200n }),
        createAggregatorPriceFeed({ aggregators: { ETH: aggregator }, readRound: aggregatorRoundReader(owner) }),
      ],
      maxAgeMs: () => 60_000,
      deviationBps: 100n,
      timeoutMs: 2_000,
      refreshMs: 0,
      backoff: { baseMs: 10, maxMs: 100 },
    });
    hermes.book.set("ETH", "3000");
    await poster.post();
    const [agreed] = await chain.prices(["ETH"]);
    expect(agreed).toMatchObject({ priceE18: 3000n * 10n ** 18n, source: "pyth" });

    // The aggregator alone moves 10 %: the first source's price has a second opinion far from it.
    const pushed = await owner.writeContract({
      address: aggregator,
      abi: devnetAggregatorArtifact.abi,
      functionName: "postRound",
      args: [330_000_000_000n, BigInt(Math.floor(Date.now() / 1000))],
    });
    await owner.waitForTransactionReceipt({ hash: pushed });
    // The cache answers first and refreshes behind it: the next read sees the pushed round.
    await chain.prices(["ETH"]).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await expect(chain.prices(["ETH"])).rejects.toMatchObject({ errorCode: "PRICE_FETCH_FAILED" });

    hermes.book.set("ETH", "3300");
    await poster.post();
    await chain.prices(["ETH"]).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await chain.prices(["ETH"]))[0]?.priceE18).toBe(3300n * 10n ** 18n);
  });
});
