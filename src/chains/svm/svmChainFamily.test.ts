import { describe, expect, it } from "vitest";
import { chainConfigSchema } from "../chainConfig.js";
import { familyOfChain } from "../familyOfChain.js";
import { SOLANA_NATIVE_CURRENCY } from "./svmFamily.js";
import { svmChainConfigSchema } from "./svmChainFamily.js";

const USDC = "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU";
const entry = {
  id: 792703809,
  vmType: "svm",
  name: "solana-devnet",
  rpcUrl: "http://127.0.0.1:8899",
  depository: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
  solver: "HN7cABqLq46Es1jh92dQQisAq662SmxELLLsHHe4YWrH",
  currencies: [
    { symbol: "SOL", address: SOLANA_NATIVE_CURRENCY, decimals: 9 },
    { symbol: "USDC", address: USDC, decimals: 6 },
  ],
};

describe("svmChainFamily", () => {
  it("reads a Solana entry of the chains file, SOL as its native currency by default", () => {
    const chain = chainConfigSchema.parse(entry);
    expect(chain).toMatchObject({ vmType: "svm", nativeCurrency: { symbol: "SOL", decimals: 9 }, confirmations: [] });
    expect(familyOfChain(chain).vmType).toBe("svm");
  });

  it("refuses addresses that are not Solana keys, a solver that is the depository, SOL with other decimals", () => {
    const refused = (patch: Record<string, unknown>) => svmChainConfigSchema.safeParse({ ...entry, ...patch }).success;
    expect(refused({ depository: "0x5FbDB2315678afecb367f032d93F642f64180aa3" })).toBe(false);
    expect(refused({ depository: SOLANA_NATIVE_CURRENCY })).toBe(false);
    expect(refused({ solver: entry.depository })).toBe(false);
    expect(refused({ currencies: [{ symbol: "USDC", address: "not-a-mint", decimals: 6 }] })).toBe(false);
    expect(refused({ currencies: [{ symbol: "SOL", address: SOLANA_NATIVE_CURRENCY, decimals: 8 }] })).toBe(false);
    expect(refused({})).toBe(true);
  });

  it("is a destination with a solver wallet, with no calls, app fees or deposit addresses; publishes the mints", () => {
    const chain = svmChainConfigSchema.parse({ ...entry, publicRpcUrl: "https://rpc.example" });
    const family = familyOfChain(chain);
    expect(family.capabilities(chain)).toMatchObject({
      sameChain: false,
      appFees: false,
      depositAddresses: false,
      destinationRefusal: undefined,
      destinationCallsRefusal: expect.any(String),
      // A day of 400 ms slots before a deposit naming no order is refunded, unless the chain says otherwise.
      refundUnmatchedAfterBlocks: 216_000,
    });
    const shortened = svmChainConfigSchema.parse({ ...entry, refundUnmatchedAfterBlocks: 40 });
    expect(family.capabilities(shortened).refundUnmatchedAfterBlocks).toBe(40);
    expect(svmChainConfigSchema.safeParse({ ...entry, refundUnmatchedAfterBlocks: 0 }).success).toBe(false);
    const { solver: _, ...withoutSolver } = entry;
    const originOnly = svmChainConfigSchema.parse(withoutSolver);
    expect(family.capabilities(originOnly).destinationRefusal).toMatch(/no solver wallet/);
    expect(family.publicFields(chain)).toEqual({
      publicRpcUrl: "https://rpc.example",
      publicWsUrl: undefined,
      receiver: SOLANA_NATIVE_CURRENCY,
      tokens: [{ symbol: "USDC", address: USDC, decimals: 6 }],
    });
  });
});
