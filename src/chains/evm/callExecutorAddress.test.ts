import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { receiverAbi } from "../../../contracts/abis.js";
import { type DevnetChains, startDevnetChains } from "../../../devnet/startDevnetChains.js";
import { callExecutorAddress } from "./callExecutorAddress.js";
import { createEvmChainClient } from "./evmChainClient.js";

describe("callExecutorAddress", () => {
  let devnet: DevnetChains;
  beforeAll(async () => {
    devnet = await startDevnetChains({ chainIds: [31363], blockTime: 0 });
  });
  afterAll(() => devnet?.stop());

  it("is the executor the deployed Receiver names", async () => {
    const chain = devnet.chains[0];
    const client = createEvmChainClient(chain);
    const executor = await client.publicClient.readContract({
      address: chain.receiver,
      abi: receiverAbi,
      functionName: "executor",
    });
    expect(callExecutorAddress(chain.receiver)).toBe(executor);
    expect(callExecutorAddress(chain.receiver.toLowerCase())).toBe(executor);
  });
});
