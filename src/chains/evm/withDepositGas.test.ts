import { zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevnetChains, startDevnetChains } from "../../../devnet/startDevnetChains.js";
import { buildDepositSteps } from "./buildDepositSteps.js";
import { createEvmChainClient } from "./evmChainClient.js";
import { withDepositGas } from "./withDepositGas.js";

describe("withDepositGas", () => {
  let devnet: DevnetChains;
  beforeAll(async () => {
    devnet = await startDevnetChains({ chainIds: [31391], blockTime: 0 });
  });
  afterAll(async () => {
    await devnet?.stop();
  });

  const steps = (
    currencySymbol: "ETH" | "USDC",
    amount: bigint,
    allowance: bigint,
    user = devnet.accounts[0].address,
  ) => {
    const [chain] = devnet.chains;
    const currency =
      currencySymbol === "ETH"
        ? { address: zeroAddress, symbol: "ETH", name: "Ether", decimals: 18 }
        : chain.currencies.find((c) => c.symbol === currencySymbol)!;
    return buildDepositSteps(chain, {
      user,
      currency: {
        ...currency,
        chainId: chain.id,
        metadata: { logoURI: "", verified: true, isNative: currency.address === zeroAddress },
      },
      amount,
      orderId: `0x${"22".repeat(32)}`,
      requestId: `0x${"33".repeat(32)}`,
      allowance,
      destinationName: "devnet",
    } as never);
  };

  it("gives a deposit the gas its simulation used and the chain's fees now", async () => {
    const client = createEvmChainClient(devnet.chains[0]);
    const [deposit] = await withDepositGas(client, steps("ETH", 10n ** 15n, 0n));
    const fees = await client.publicClient.estimateFeesPerGas();
    const data = deposit.items[0].data as Record<string, string>;
    const simulated = await client.publicClient.estimateGas({
      account: data.from as `0x${string}`,
      to: data.to as `0x${string}`,
      data: data.data as `0x${string}`,
      value: BigInt(data.value),
    });
    expect(data).toMatchObject({
      gas: simulated.toString(),
      maxFeePerGas: fees.maxFeePerGas.toString(),
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
    });
    expect(BigInt(data.gas)).toBeGreaterThan(21_000n);
  });

  it("simulates an approval, but not the deposit waiting for it; fees on both", async () => {
    const client = createEvmChainClient(devnet.chains[0]);
    const [approve, deposit] = await withDepositGas(client, steps("USDC", 1_000_000n, 0n));
    expect(approve.id).toBe("approve");
    expect(BigInt((approve.items[0].data as { gas: string }).gas)).toBeGreaterThan(21_000n);
    expect(deposit.items[0].data).not.toHaveProperty("gas");
    expect(deposit.items[0].data).toHaveProperty("maxFeePerGas");
  });

  it("leaves out the gas of a deposit that would revert (the user lacks the amount)", async () => {
    const client = createEvmChainClient(devnet.chains[0]);
    const poor = "0x000000000000000000000000000000000000dEaD";
    const [deposit] = await withDepositGas(client, steps("USDC", 1_000_000n, 10n ** 30n, poor));
    expect(deposit.id).toBe("deposit");
    expect(deposit.items[0].data).not.toHaveProperty("gas");
    expect(deposit.items[0].data).toHaveProperty("maxPriorityFeePerGas");
  });
});
