import { describe, expect, it } from "vitest";
import { chainConfigSchema } from "./chainConfig.js";
import { createChainAvailability } from "./createChainAvailability.js";

const chain = chainConfigSchema.parse({
  id: 31338,
  name: "chain-a",
  rpcUrl: "http://127.0.0.1:1",
  blockTimeSeconds: 1,
  depository: "0x00000000000000000000000000000000000000d0",
  receiver: "0x00000000000000000000000000000000000000e0",
});

describe("createChainAvailability", () => {
  it("reads switches and heads at most once per ttl, and answers from the last read while the database is down", async () => {
    let clock = 1_000_000;
    let down = false;
    let reads = 0;
    const db = {
      query: async (sql: string) => {
        reads += 1;
        if (down) throw new Error("connect ECONNREFUSED");
        if (sql.includes("solver_balances")) return { rows: [{ chain_id: "31338", currency: "0xusdc" }] };
        if (sql.includes("chain_switches"))
          return {
            rows: [
              {
                chain_id: "31338",
                disabled: true,
                partial_disable_limit_usd: "50",
                reason: "incident",
                updated_at: new Date(),
              },
            ],
          };
        return {
          rows: [
            { chain_id: "31338", block_number: "7", moved_at: new Date(clock - 5_000), observed_at: new Date(clock) },
          ],
        };
      },
    };
    const availability = createChainAvailability(db as never, { ttlMs: 1_000, now: () => clock });
    const expected = {
      disabled: true,
      depositEnabled: false,
      partialDisableLimitUsd: "50",
      blockProductionLagging: false,
      reason: "incident",
      solverCurrencies: ["0xusdc"],
    };
    expect(await availability(chain)).toEqual(expected);
    expect(await availability(chain)).toEqual(expected);
    expect(reads).toBe(3);

    down = true;
    clock += 1_000;
    expect(await availability(chain)).toEqual(expected);
    expect(reads).toBe(6);
    clock += 1;
    // Not cached: the next caller tries the database again.
    expect(await availability(chain)).toEqual(expected);
    expect(reads).toBe(9);

    const fresh = createChainAvailability(db as never, { now: () => clock });
    await expect(fresh(chain)).rejects.toThrow(/ECONNREFUSED/);
  });
});
