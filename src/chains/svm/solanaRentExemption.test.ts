import { Connection } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevnetSolana, startDevnetSolana } from "../../../devnet/svm/startDevnetSolana.js";
import { SOLANA_RENT_EXEMPT_EMPTY_ACCOUNT } from "./solanaRentExemption.js";

describe("SOLANA_RENT_EXEMPT_EMPTY_ACCOUNT", () => {
  let solana: DevnetSolana;
  beforeAll(async () => {
    solana = await startDevnetSolana({ slotMs: 0 });
  });
  afterAll(() => solana?.stop());

  it("is what the chain (litesvm's rent sysvar) asks of an account without data", async () => {
    const rent = await new Connection(solana.rpcUrl).getMinimumBalanceForRentExemption(0);
    expect(BigInt(rent)).toBe(SOLANA_RENT_EXEMPT_EMPTY_ACCOUNT);
  });
});
