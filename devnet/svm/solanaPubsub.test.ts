import { Connection, Keypair, LAMPORTS_PER_SOL, SystemProgram, Transaction } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevnetSolana, startDevnetSolana } from "./startDevnetSolana.js";

describe("solanaPubsub", () => {
  let solana: DevnetSolana;
  let connection: Connection;
  beforeAll(async () => {
    solana = await startDevnetSolana({ slotMs: 0, finalizedAfterSlots: 2 });
    connection = new Connection(solana.rpcUrl, { commitment: "confirmed", wsEndpoint: solana.wsUrl });
  });
  afterAll(() => solana?.stop());

  const next = <T>(subscribe: (resolve: (value: T) => void) => number) =>
    new Promise<{ value: T; id: number }>((resolve) => {
      const id = subscribe((value) => resolve({ value, id }));
    });

  it("notifies slots, and logs that mention an address once they reach the subscription's commitment", async () => {
    const slots: number[] = [];
    const slotId = connection.onSlotChange((info) => slots.push(info.slot));
    const [payer] = solana.accounts;
    const to = Keypair.generate().publicKey;
    const processedLogs: string[] = [];
    const processedId = connection.onLogs(to, (logs) => processedLogs.push(logs.signature), "processed");
    const finalized = next<{ signature: string; logs: string[] }>((resolve) =>
      connection.onLogs(to, resolve, "finalized"),
    );
    // Subscriptions are sent lazily by web3.js: give them a slot to be registered.
    await new Promise((r) => setTimeout(r, 300));
    const tx = new Transaction({
      feePayer: payer.publicKey,
      ...(await connection.getLatestBlockhash("processed")),
    }).add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports: LAMPORTS_PER_SOL }));
    tx.sign(payer);
    const signature = await connection.sendRawTransaction(tx.serialize());
    const start = solana.ledger.slot("processed");
    solana.advance(2);
    const { value, id } = await finalized;
    expect(value.signature).toBe(signature);
    expect(value.logs).toContain("Program 11111111111111111111111111111111 success");
    expect(processedLogs).toEqual([signature]);
    await new Promise((r) => setTimeout(r, 100));
    expect(slots).toEqual(expect.arrayContaining([start + 1, start + 2]));
    await Promise.all(
      [slotId, processedId, id].map((sub, i) =>
        i === 0 ? connection.removeSlotChangeListener(sub) : connection.removeOnLogsListener(sub),
      ),
    );
  });
});
