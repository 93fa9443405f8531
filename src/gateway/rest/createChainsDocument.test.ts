import { describe, expect, it } from "vitest";
import { createChainAdapters } from "../../chains/chainAdapters.js";
import { createChainRegistry } from "../../chains/chainRegistry.js";
import type { ChainAvailability } from "../../chains/createChainAvailability.js";
import { testEvmChain } from "../../../test/support/testEvmChain.js";
import { createChainsDocument } from "./createChainsDocument.js";

const chains = [testEvmChain(31338)];

describe("createChainsDocument", () => {
  it("serialises once while the availability stays the same, again when it changes", async () => {
    const availability: ChainAvailability = {
      disabled: false,
      depositEnabled: true,
      partialDisableLimitUsd: null,
      blockProductionLagging: false,
      reason: null,
      solverCurrencies: [],
    };
    const document = createChainsDocument({
      registry: createChainRegistry(chains),
      adapters: createChainAdapters(chains, {}),
      // a fresh object per call, as the real reader returns: equal contents must still reuse the body
      availability: async () => ({ ...availability }),
    });
    const first = await document();
    expect(await document()).toBe(first);
    availability.blockProductionLagging = true;
    const lagging = await document();
    expect(lagging).not.toBe(first);
    expect(lagging.etag).not.toBe(first.etag);
    expect(JSON.parse(lagging.body).chains[0].blockProductionLagging).toBe(true);
    availability.partialDisableLimitUsd = "100";
    const limited = await document();
    expect(JSON.parse(limited.body).chains[0].partialDisableLimit).toBe(100);
    expect(limited.etag).not.toBe(lagging.etag);
  });
});
