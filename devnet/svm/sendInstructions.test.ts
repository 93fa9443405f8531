import { Connection, SystemProgram } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendInstructions } from "./sendInstructions.js";
import { type DevnetSolana, startDevnetSolana } from "./startDevnetSolana.js";

describe("sendInstructions", () => {
  let solana: DevnetSolana;
  beforeAll(async () => {
    solana = await startDevnetSolana({ slotMs: 0, confirmedAfterSlots: 0 });
  });
  afterAll(() => solana?.stop());

  it("lands a signed v0 transaction, and one that fails only with skipPreflight", async () => {
    const connection = new Connection(solana.rpcUrl, "confirmed");
    const [payer, payee] = solana.accounts;
    const transfer = (lamports: bigint) =>
      SystemProgram.transfer({ fromPubkey: payer!.publicKey, toPubkey: payee!.publicKey, lamports });
    const signature = await sendInstructions(connection, payer!, [transfer(1_000n)]);
    expect((await connection.getSignatureStatuses([signature])).value[0]?.err).toBeNull();
    await expect(sendInstructions(connection, payer!, [transfer(10n ** 18n)])).rejects.toThrow(/simulation failed/);
    const failed = await sendInstructions(connection, payer!, [transfer(10n ** 18n)], { skipPreflight: true });
    expect((await connection.getSignatureStatuses([failed])).value[0]?.err).not.toBeNull();
  });
});
