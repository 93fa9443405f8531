import { describe, expect, it } from "vitest";
import { createChainAdapters } from "../../chains/chainAdapters.js";
import { createChainRegistry } from "../../chains/chainRegistry.js";
import type { ChainAvailability } from "../../chains/createChainAvailability.js";
import { RPC_KEY, keyedRpcChains } from "../../../test/support/keyedRpcChains.js";
import { testEvmChain } from "../../../test/support/testEvmChain.js";
import { chainRoutes } from "./chainRoutes.js";

const chains = [31338, 31339].map(testEvmChain);

const open: ChainAvailability = {
  disabled: false,
  depositEnabled: true,
  partialDisableLimitUsd: null,
  blockProductionLagging: false,
  reason: null,
  solverCurrencies: [],
};

function routes() {
  const state: ChainAvailability = {
    disabled: false,
    depositEnabled: true,
    partialDisableLimitUsd: null,
    blockProductionLagging: false,
    reason: null,
    solverCurrencies: [],
  };
  const open = { ...state };
  const app = chainRoutes({
    registry: createChainRegistry(chains),
    adapters: createChainAdapters(chains, {}),
    quoteEngine: { availability: async (chain) => (chain.id === 31339 ? { ...open } : { ...state }) },
  });
  return { app, state };
}

describe("GET /chains", () => {
  it("answers the chains with a strong ETag, and 304 without a body when the client has that tag", async () => {
    const { app } = routes();
    const first = await app.request("/chains");
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toMatch(/^application\/json/);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const body = (await first.json()) as { chains: Array<{ id: number; disabled: boolean }> };
    expect(body.chains.map((c) => [c.id, c.disabled])).toEqual([
      [31338, false],
      [31339, false],
    ]);

    const again = await app.request("/chains", { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect(await again.text()).toBe("");

    const stale = await app.request("/chains", { headers: { "If-None-Match": '"something-else"' } });
    expect(stale.status).toBe(200);
    expect(stale.headers.get("etag")).toBe(etag);
  });

  it("changes body and ETag when a chain is switched, and back when it is switched back", async () => {
    const { app, state } = routes();
    const before = await app.request("/chains");
    const openTag = before.headers.get("etag")!;
    const openBody = await before.text();

    state.disabled = true;
    state.depositEnabled = false;
    state.reason = "incident";
    const disabled = await app.request("/chains", { headers: { "If-None-Match": openTag } });
    expect(disabled.status).toBe(200);
    const disabledTag = disabled.headers.get("etag")!;
    expect(disabledTag).not.toBe(openTag);
    const { chains: records } = (await disabled.json()) as { chains: Array<{ id: number; disabled: boolean }> };
    expect(records.find((c) => c.id === 31338)?.disabled).toBe(true);
    expect(records.find((c) => c.id === 31339)?.disabled).toBe(false);

    state.disabled = false;
    state.depositEnabled = true;
    state.reason = null;
    const reopened = await app.request("/chains");
    expect(reopened.headers.get("etag")).toBe(openTag);
    expect(await reopened.text()).toBe(openBody);
  });

  it("never publishes the solver's own RPC URLs, only the chains file's public ones (empty when unset)", async () => {
    const keyed = keyedRpcChains();
    const app = chainRoutes({
      registry: createChainRegistry(keyed),
      adapters: createChainAdapters(keyed, {}),
      quoteEngine: { availability: async () => ({ ...open }) },
    });
    const body = await (await app.request("/chains")).text();
    expect(body).not.toContain(RPC_KEY);
    const records = (JSON.parse(body) as { chains: Array<{ id: number; httpRpcUrl: string; wsRpcUrl: string }> })
      .chains;
    expect(records.map(({ id, httpRpcUrl, wsRpcUrl }) => ({ id, httpRpcUrl, wsRpcUrl }))).toEqual([
      { id: 31338, httpRpcUrl: "", wsRpcUrl: "" },
      { id: 31339, httpRpcUrl: "https://rpc.example", wsRpcUrl: "wss://rpc.example" },
    ]);
  });
});
