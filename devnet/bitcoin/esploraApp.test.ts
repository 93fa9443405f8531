import { address, networks } from "bitcoinjs-lib";
import { describe, expect, it } from "vitest";
import { devnetBitcoinKey } from "./devnetBitcoinKey.js";
import { esploraApp } from "./esploraApp.js";
import { createRegtestChain } from "./regtestChain.js";

const network = networks.regtest;
const owner = devnetBitcoinKey("esploraApp test").address;

function app() {
  const script = address.toOutputScript(owner, network);
  const chain = createRegtestChain({ network, minerScript: script, funding: [{ script, value: 1_000n }] });
  return { chain, app: esploraApp(chain) };
}

describe("esploraApp", () => {
  it("mines through POST /devnet/mine and validates the block count", async () => {
    const { chain, app: esplora } = app();
    const mined = await esplora.request("/devnet/mine", { method: "POST", body: JSON.stringify({ blocks: 3 }) });
    expect(((await mined.json()) as { hashes: string[] }).hashes).toHaveLength(3);
    expect(chain.tip().height).toBe(3);
    for (const blocks of [0, 1.5, "2", 1001]) {
      const res = await esplora.request("/devnet/mine", { method: "POST", body: JSON.stringify({ blocks }) });
      expect(res.status).toBe(400);
    }
    expect(chain.tip().height).toBe(3);
  });

  it("refuses a reorg deeper than the chain", async () => {
    const { app: esplora } = app();
    const res = await esplora.request("/devnet/reorg", { method: "POST", body: JSON.stringify({ depth: 1 }) });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/reorg depth/);
  });

  it("pages an address's confirmed history after last_seen, empty after an unknown one", async () => {
    const { chain, app: esplora } = app();
    chain.mine(30);
    const txids = async (path: string) =>
      ((await (await esplora.request(path)).json()) as { txid: string }[]).map((t) => t.txid);
    const first = await txids(`/address/${owner}/txs`);
    expect(first).toHaveLength(25);
    expect(first[0]).toBe(chain.tip().txs[0]!.txid);
    const next = await txids(`/address/${owner}/txs/chain/${first[24]}`);
    expect(next).toHaveLength(6); // 30 coinbases and the genesis funding, 25 per page
    expect(await txids(`/address/${owner}/txs/chain/${"ab".repeat(32)}`)).toEqual([]);
    expect((await esplora.request(`/address/${owner}/txs/chain/xyz`)).status).toBe(400);
  });
});

describe("esploraApp block transactions", () => {
  it("lists a block's transactions by pages of 25", async () => {
    const { chain, app: esplora } = app();
    const [hash] = chain.mine(1);
    const body = (await (await esplora.request(`/block/${hash}/txs`)).json()) as { txid: string; status: unknown }[];
    expect(body.map((t) => t.txid)).toEqual(chain.tip().txs.map((t) => t.txid));
    expect(body[0]!.status).toMatchObject({ confirmed: true, block_hash: hash, block_height: 1 });
    expect(await (await esplora.request(`/block/${hash}/txs/25`)).json()).toEqual([]);
    expect((await esplora.request(`/block/${hash}/txs/1`)).status).toBe(400);
    expect((await esplora.request(`/block/${"0".repeat(64)}/txs`)).status).toBe(404);
  });
});
