import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { listSolverInventory } from "../schema/solverBalances.js";
import type { ChainAdapters } from "../src/chains/chainAdapters.js";
import { createChainRegistry } from "../src/chains/chainRegistry.js";
import { chainConfigSchema } from "../src/chains/chainConfig.js";
import { testEvmChain } from "../test/support/testEvmChain.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { type SolverBalanceReader, startSolverBalanceReader } from "./startSolverBalanceReader.js";

const USDC = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const SOLVER = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

describe("startSolverBalanceReader", () => {
  const db = useMigratedDatabase();
  let reader: SolverBalanceReader | undefined;
  afterEach(async () => reader?.close());

  it("stores every currency of every solver chain at start and on refresh; a chain that fails keeps its last read", async () => {
    const withUsdc = chainConfigSchema.parse({
      ...testEvmChain(31339),
      currencies: [{ symbol: "USDC", address: USDC, decimals: 6 }],
    });
    const registry = createChainRegistry([testEvmChain(31338), withUsdc]);
    const held: Record<string, bigint> = {
      "31338:0x0000000000000000000000000000000000000000": 5n,
      [`31339:${USDC}`]: 7n,
    };
    let down = false;
    const quoter = (chainId: number) => ({
      solverAddress: SOLVER,
      balanceOf: async (owner: string, currency: string) => {
        if (owner !== SOLVER) throw new Error("not the solver");
        if (down && chainId === 31339) throw new Error("node down");
        return held[`${chainId}:${currency}`] ?? 1n;
      },
    });
    const adapters = {
      all: (role: string) => (role === "solver" ? [31338, 31339].map((id) => ({ chain: { id } })) : []),
      quoter,
    } as unknown as ChainAdapters;
    const at = new Date("2026-11-28T06:00:00Z");
    reader = startSolverBalanceReader({
      pool: db.pool,
      adapters,
      registry,
      logger: pino({ level: "silent" }),
      everyMs: 60_000,
      now: () => at,
    });
    await reader.refresh();
    const read = (await listSolverInventory(db.pool)).map((row) => [row.chainId, row.symbol, row.balance]);
    expect(read).toEqual([
      [31338, "ETH", 5n],
      [31339, "ETH", 1n],
      [31339, "USDC", 7n],
    ]);
    held["31338:0x0000000000000000000000000000000000000000"] = 4n;
    held[`31339:${USDC}`] = 3n;
    down = true;
    await reader.refresh();
    const again = (await listSolverInventory(db.pool)).map((row) => [row.chainId, row.symbol, row.balance]);
    expect(again).toEqual([
      [31338, "ETH", 4n],
      [31339, "ETH", 1n],
      [31339, "USDC", 7n],
    ]);
  });
});
