import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { familyAdapters } from "../../apps/families/familyAdapters.js";
import type { ChainConfig } from "../chains/chainConfig.js";
import { OPEN_CHAIN_AVAILABILITY } from "../../test/support/openChainAvailability.js";
import { testEvmChain } from "../../test/support/testEvmChain.js";
import { testQuoteBody } from "../../test/support/testQuoteBody.js";
import { createChainRegistry } from "../chains/chainRegistry.js";
import { admitQuote } from "./admitQuote.js";
import type { QuoteEngineDeps } from "./quoteEngineDeps.js";

const chains = [testEvmChain(10), testEvmChain(20)];
const open = OPEN_CHAIN_AVAILABILITY;

/** The quote engine's dependencies admission reads, with chains open unless `closed` names one; the chains asked. */
function setup(closed?: number) {
  const asked: number[] = [];
  const deps = {
    registry: createChainRegistry(chains),
    adapters: familyAdapters(chains, { evm: { solver: privateKeyToAccount(generatePrivateKey()) } }),
    settings: { sponsoredAppFeeMaxBps: 100n },
    availability: async (chain: ChainConfig) => {
      asked.push(chain.id);
      return chain.id === closed ? { ...open, disabled: true, reason: "incident" } : open;
    },
  } as unknown as QuoteEngineDeps;
  return { deps, asked };
}

const body = (extra: Record<string, unknown> = {}) => ({ ...testQuoteBody, ...extra });
const appFee = (fee: string, recipient = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc") => ({ recipient, fee });
const OTHER = "0x90f79bf6eb2c4f870365e785982e1f101e93b906";

describe("admitQuote", () => {
  it("admits a valid request between open chains, with no sponsor when none is asked", async () => {
    const { deps, asked } = setup();
    const { request, sponsor } = await admitQuote(deps, body(), { integrator: "acme", sponsors: true });
    expect(request).toMatchObject({ amount: 1000n, originChain: { id: 10 }, destinationChain: { id: 20 } });
    expect(sponsor).toBeUndefined();
    expect(asked).toEqual([10, 20]);
  });

  it("makes the key's integrator the sponsor of a subsidizeFees quote, when the key may sponsor", async () => {
    const { deps } = setup();
    const admitted = await admitQuote(deps, body({ subsidizeFees: true }), { integrator: "acme", sponsors: true });
    expect(admitted.sponsor).toBe("acme");
  });

  it("refuses sponsorship without a key, by a key that may not sponsor, or paying app fees above the cap, before any chain is asked", async () => {
    const { deps, asked } = setup();
    await expect(admitQuote(deps, body({ subsidizeFees: true }), {})).rejects.toMatchObject({
      errorCode: "INVALID_INPUT",
      message: expect.stringMatching(/needs an x-api-key/),
    });
    await expect(admitQuote(deps, body({ subsidizeFees: true }), { integrator: "acme" })).rejects.toMatchObject({
      status: 403,
    });
    const overCap = body({
      subsidizeFees: true,
      sponsoredFeeComponents: ["app"],
      appFees: [appFee("60"), appFee("41", OTHER)],
    });
    await expect(admitQuote(deps, overCap, { integrator: "acme", sponsors: true })).rejects.toMatchObject({
      errorCode: "INVALID_INPUT",
      message: expect.stringMatching(/at most 100 bps of app fees in all; this one carries 101/),
    });
    expect(asked).toEqual([]);
    // At the cap, or app fees the sponsor does not pay: admitted.
    const atCap = body({
      subsidizeFees: true,
      sponsoredFeeComponents: ["app"],
      appFees: [appFee("60"), appFee("40", OTHER)],
    });
    await expect(admitQuote(deps, atCap, { integrator: "acme", sponsors: true })).resolves.toBeDefined();
    const notPaid = body({ subsidizeFees: true, sponsoredFeeComponents: ["relay"], appFees: [appFee("500")] });
    await expect(admitQuote(deps, notPaid, { integrator: "acme", sponsors: true })).resolves.toBeDefined();
  });

  it("refuses a quote touching a disabled chain (CHAIN_DISABLED)", async () => {
    const { deps } = setup(20);
    await expect(admitQuote(deps, body(), {})).rejects.toMatchObject({ errorCode: "CHAIN_DISABLED" });
  });
});
