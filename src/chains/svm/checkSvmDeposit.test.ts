import { Connection, SystemProgram } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendInstructions } from "../../../devnet/svm/sendInstructions.js";
import { type DevnetSolana, startDevnetSolana } from "../../../devnet/svm/startDevnetSolana.js";
import type { AppliedDeposit } from "../chainFacts.js";
import { checkSvmDeposit } from "./checkSvmDeposit.js";
import { SOLANA_NATIVE_CURRENCY } from "./svmFamily.js";

describe("checkSvmDeposit", () => {
  let solana: DevnetSolana;
  let connection: Connection;
  beforeAll(async () => {
    // Confirmed one slot after landing, finalized four after.
    solana = await startDevnetSolana({ slotMs: 0, confirmedAfterSlots: 1, finalizedAfterSlots: 4 });
    connection = new Connection(solana.rpcUrl, "confirmed");
    // Past genesis, so the finalized slot is not held at 0.
    solana.advance(10);
  });
  afterAll(() => solana?.stop());

  const deposit = async (): Promise<AppliedDeposit> => {
    const payer = solana.accounts[0]!;
    const signature = await sendInstructions(connection, payer, [
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: solana.depository.publicKey, lamports: 1_000n }),
    ]);
    const slot = solana.ledger.slot("processed");
    return {
      chainId: 792703809,
      txHash: signature,
      position: 0,
      blockHash: signature,
      depositor: payer.publicKey.toBase58(),
      currency: SOLANA_NATIVE_CURRENCY,
      amount: 1_000n,
      blockNumber: BigInt(slot),
    };
  };
  const check = (applied: AppliedDeposit, required: number) =>
    checkSvmDeposit(connection, 792703809, applied, required, async () => undefined);

  it("waits for finalized, however few slots the tiers ask, then for the tiers' depth", async () => {
    const applied = await deposit();
    solana.advance(1);
    // Confirmed, not finalized: the finalized slot trails the deposit by three.
    expect(await check(applied, 0)).toEqual({ state: "confirming", missingBlocks: 3 });
    solana.advance(3);
    expect(await check(applied, 0)).toEqual({ state: "final" });
    expect(await check(applied, 8)).toEqual({ state: "confirming", missingBlocks: 4 });
    solana.advance(4);
    expect(await check(applied, 8)).toEqual({ state: "final" });
  });

  it("calls a signature the chain does not have reorged, and one in another slot moved when it can be read", async () => {
    const applied = await deposit();
    solana.advance(5);
    const unknown = { ...applied, txHash: "1".repeat(64) };
    expect(await check(unknown, 1)).toMatchObject({ state: "reorged", reorg: { txHash: unknown.txHash } });
    const elsewhere = { ...applied, blockNumber: applied.blockNumber - 1n };
    expect(await check(elsewhere, 1)).toMatchObject({ state: "reorged" });
    const to = { position: 0, blockNumber: applied.blockNumber, blockHash: applied.txHash, timestamp: 1n };
    expect(await checkSvmDeposit(connection, 792703809, elsewhere, 1, async () => to)).toEqual({ state: "moved", to });
  });
});
