import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devnetAggregatorArtifact } from "../../../contracts/artifacts.js";
import { devnetAccounts } from "../../../devnet/devnetAccounts.js";
import { type DevnetWalletClient, devnetWalletClient } from "../../../devnet/devnetWalletClient.js";
import { freePort } from "../../../devnet/freePort.js";
import { type AnvilInstance, startAnvil } from "../../../devnet/startAnvil.js";
import { createAggregatorPriceFeed } from "../../pricing/aggregator/createAggregatorPriceFeed.js";
import { aggregatorRoundReader } from "./aggregatorRoundReader.js";

const { solver: deployerKey, testAccounts } = devnetAccounts();
const signal = () => new AbortController().signal;

describe("aggregatorRoundReader against DevnetAggregator on anvil", () => {
  let anvil: AnvilInstance;
  let owner: DevnetWalletClient;
  const deploy = async (decimals: number): Promise<Address> => {
    const hash = await owner.deployContract({ ...devnetAggregatorArtifact, args: [decimals] });
    return (await owner.waitForTransactionReceipt({ hash })).contractAddress!;
  };
  const post = async (aggregator: Address, answer: bigint, updatedAt: bigint) => {
    const hash = await owner.writeContract({
      address: aggregator,
      abi: devnetAggregatorArtifact.abi,
      functionName: "postRound",
      args: [answer, updatedAt],
    });
    expect((await owner.waitForTransactionReceipt({ hash })).status).toBe("success");
  };

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 31364, port: await freePort(), blockTime: 0 });
    owner = devnetWalletClient({ rpcUrl: anvil.rpcUrl, chainId: anvil.chainId, privateKey: deployerKey.privateKey });
  });
  afterAll(() => anvil?.stop());

  it("reads rounds and decimals; the price feed scales 8 and 18 decimals and dates by updatedAt", async () => {
    const [eth, usdc] = [await deploy(8), await deploy(18)];
    const read = aggregatorRoundReader(owner);
    await expect(read(eth, signal())).rejects.toThrow(/NoRound|revert/);
    const updatedAt = BigInt(Math.floor(Date.now() / 1000));
    await post(eth, 300_012_345_678n, updatedAt);
    await post(eth, 300_112_345_678n, updatedAt + 1n);
    await post(usdc, 999_900_000_000_000_000n, updatedAt);
    expect(await read(eth, signal())).toEqual({
      roundId: 2n,
      answer: 300_112_345_678n,
      updatedAt: updatedAt + 1n,
      answeredInRound: 2n,
      decimals: 8,
    });
    const feed = createAggregatorPriceFeed({ aggregators: { ETH: eth, USDC: usdc }, readRound: read });
    const answers = await feed.fetch(["ETH", "USDC"], signal());
    expect(answers.get("ETH")).toEqual({
      priceE18: 3_001_123_456_780_000_000_000n,
      observedAt: Number(updatedAt + 1n) * 1000,
      source: "aggregator",
    });
    expect(answers.get("USDC")?.priceE18).toBe(999_900_000_000_000_000n);
  });

  it("attack: only the owner posts rounds; a negative posted answer is no price", async () => {
    const aggregator = await deploy(8);
    const stranger = devnetWalletClient({
      rpcUrl: anvil.rpcUrl,
      chainId: anvil.chainId,
      privateKey: testAccounts[0].privateKey,
    });
    await expect(
      stranger.writeContract({
        address: aggregator,
        abi: devnetAggregatorArtifact.abi,
        functionName: "postRound",
        args: [1n, 1n],
      }),
    ).rejects.toThrow(/NotOwner/);
    await post(aggregator, -5n, BigInt(Math.floor(Date.now() / 1000)));
    const feed = createAggregatorPriceFeed({
      aggregators: { ETH: aggregator },
      readRound: aggregatorRoundReader(owner),
    });
    expect((await feed.fetch(["ETH"], signal())).size).toBe(0);
  });
});
