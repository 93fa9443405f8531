import { describe, expect, it } from "vitest";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { getFillAttempt, insertFillAttempt } from "./fillAttempts.js";

describe("insertFillAttempt", () => {
  const database = useMigratedDatabase();
  const attempt = (requestId: string, fields: { solver: string; recipient: string; nonce: number | null }) => ({
    requestId,
    chainId: 1,
    txHash: `0x${"ab".repeat(32)}`,
    rawTx: "0x01",
    currency: "0xAbC0000000000000000000000000000000000001",
    amount: 5n,
    ...fields,
  });

  it("stores EVM addresses in lower case, Bitcoin's as written, and a nonce or none", async () => {
    const evm = await insertTestRequest(database.pool);
    const solver = "0xAbC0000000000000000000000000000000000002";
    expect(await insertFillAttempt(database.pool, attempt(evm.id, { solver, recipient: solver, nonce: 7 }))).toBe(true);
    expect(await getFillAttempt(database.pool, evm.id)).toMatchObject({
      solver: solver.toLowerCase(),
      recipient: solver.toLowerCase(),
      nonce: 7,
    });
    const bitcoin = await insertTestRequest(database.pool);
    // A base58 (P2PKH) recipient is case-sensitive.
    const recipient = "mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn";
    const bech32 = "bcrt1quvmqzt9ug428ft3f7nkjtazd20quyy8dz6k7d7";
    expect(
      await insertFillAttempt(database.pool, attempt(bitcoin.id, { solver: bech32, recipient, nonce: null })),
    ).toBe(true);
    expect(await getFillAttempt(database.pool, bitcoin.id)).toMatchObject({ solver: bech32, recipient, nonce: null });
    expect(
      await insertFillAttempt(database.pool, attempt(bitcoin.id, { solver: bech32, recipient, nonce: null })),
    ).toBe(false);
  });
});
