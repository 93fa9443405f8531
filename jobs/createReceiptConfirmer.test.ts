import { fakeChainAdapters } from "../test/support/fakeChainAdapters.js";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { fillsOfRequests } from "../schema/requestChainFacts.js";
import { getRequest } from "../schema/requests.js";
import type { MinedReceipt } from "../src/chains/adapter.js";
import type { ChainAdapters } from "../src/chains/chainAdapters.js";
import { appFeeTestRegistry } from "../test/support/appFeeTestChains.js";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { createReceiptConfirmer } from "./createReceiptConfirmer.js";
import bs58 from "bs58";
import { createChainRegistry } from "../src/chains/chainRegistry.js";
import { svmChainConfigSchema } from "../src/chains/svm/svmChainFamily.js";

/** A Solana chain beside the app-fee test chains: its fills are named by base58 signatures. */
const SOLANA_CHAIN_ID = 792703809;
const solanaRegistry = createChainRegistry([
  ...appFeeTestRegistry.chains,
  svmChainConfigSchema.parse({
    id: SOLANA_CHAIN_ID,
    vmType: "svm",
    name: "solana-test",
    rpcUrl: "http://127.0.0.1:1",
    depository: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
    solver: "HN7cABqLq46Es1jh92dQQisAq662SmxELLLsHHe4YWrH",
  }),
]);

/** Adapters whose receipts arrive when the test says so (`mine`), or never. */
function fakeAdapters() {
  const waiting = new Map<string, (receipt: MinedReceipt | undefined) => void>();
  const adapters = fakeChainAdapters(() => ({
    chain: { blockTimeSeconds: 1 },
    waitForReceipt: (txHash: string, options: { signal?: AbortSignal }) =>
      new Promise<MinedReceipt | undefined>((resolve) => {
        waiting.set(txHash, resolve);
        options.signal?.addEventListener("abort", () => resolve(undefined));
      }),
  }));
  const mine = async (txHash: string, succeeded: boolean, requestId = "") => {
    waiting.get(txHash)!({
      succeeded,
      blockNumber: 7n,
      blockHash: "0xb7",
      timestamp: 1_700_000_007n,
      fee: 21_000n,
      fills: [{ position: 2, requestId, currency: "0x00", recipient: "0xcc", amount: 990n }],
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
  };
  return { adapters, mine };
}

describe("createReceiptConfirmer", () => {
  const db = useMigratedDatabase();
  const confirmer = (adapters: ChainAdapters) =>
    createReceiptConfirmer({
      pool: db.pool,
      adapters,
      registry: solanaRegistry,
      logger: pino({ level: "silent" }),
    });

  it("moves a submitted request to success on its successful receipt, and leaves a reverted one alone", async () => {
    const { adapters, mine } = fakeAdapters();
    const receipts = confirmer(adapters);
    const ok = await insertTestRequest(db.pool);
    const reverted = await insertTestRequest(db.pool);
    await db.pool.query("UPDATE crossfill.requests SET status = 'submitted' WHERE id = ANY($1)", [
      [ok.id, reverted.id],
    ]);
    receipts.watch({ requestId: ok.id, chainId: 31339, txHash: "0xaa" });
    receipts.watch({ requestId: reverted.id, chainId: 31339, txHash: "0xbb" });
    expect((await getRequest(db.pool, ok.id))?.status).toBe("submitted");
    await mine("0xaa", true, ok.id);
    await mine("0xbb", false, reverted.id);
    expect((await getRequest(db.pool, ok.id))?.status).toBe("success");
    expect((await getRequest(db.pool, reverted.id))?.status).toBe("submitted");
    const { rows } = await db.pool.query(
      "SELECT to_status, details FROM crossfill.status_events WHERE request_id = $1 ORDER BY id DESC LIMIT 1",
      [ok.id],
    );
    expect(rows[0]).toEqual({ to_status: "success", details: { fillTxHash: "0xaa", confirmedBy: "receipt" } });
    // the receipt's fill, recorded with the success as a provisional fact every reader sees
    const fills = await fillsOfRequests(db.pool, [ok.id, reverted.id]);
    expect(fills[1]).toEqual([]);
    expect(fills[0]).toMatchObject([
      { txHash: "0xaa", logIndex: 2, amount: 990n, blockNumber: 7n, timestamp: 1_700_000_007, txFee: 21_000n },
    ]);
    expect(fills[0][0].provisional).toBe(true);
    expect((await getRequest(db.pool, ok.id))?.status).toBe("success");
    await receipts.close();
  });

  it("never moves a failed request, and stops watching on close", async () => {
    const { adapters, mine } = fakeAdapters();
    const receipts = confirmer(adapters);
    const failed = await insertTestRequest(db.pool);
    await db.pool.query("UPDATE crossfill.requests SET status = 'failure' WHERE id = $1", [failed.id]);
    const confirming = receipts.confirm({ requestId: failed.id, chainId: 31339, txHash: "0xcc" });
    await mine("0xcc", true, failed.id);
    await confirming;
    expect((await getRequest(db.pool, failed.id))?.status).toBe("failure");
    expect(await fillsOfRequests(db.pool, [failed.id])).toEqual([[]]);
    receipts.watch({ requestId: failed.id, chainId: 31339, txHash: "0xdd" });
    await receipts.close();
  });

  it("leaves a request whose successful receipt shows no Fill of it to the indexer", async () => {
    const { adapters, mine } = fakeAdapters();
    const receipts = confirmer(adapters);
    const request = await insertTestRequest(db.pool);
    await db.pool.query("UPDATE crossfill.requests SET status = 'submitted' WHERE id = $1", [request.id]);
    receipts.watch({ requestId: request.id, chainId: 31339, txHash: "0xee" });
    await mine("0xee", true, `0x${"00".repeat(32)}`);
    expect((await getRequest(db.pool, request.id))?.status).toBe("submitted");
    expect(await fillsOfRequests(db.pool, [request.id])).toEqual([[]]);
    await receipts.close();
  });

  it("records a Solana fill under its base58 signature as written (base58 is case-sensitive)", async () => {
    const { adapters, mine } = fakeAdapters();
    const receipts = confirmer(adapters);
    const request = await insertTestRequest(db.pool, { destinationChainId: SOLANA_CHAIN_ID });
    await db.pool.query("UPDATE crossfill.requests SET status = 'submitted' WHERE id = $1", [request.id]);
    const signature = bs58.encode(Buffer.alloc(64, 0xab));
    expect(signature).not.toBe(signature.toLowerCase());
    receipts.watch({ requestId: request.id, chainId: SOLANA_CHAIN_ID, txHash: signature });
    await mine(signature, true, request.id);
    expect((await getRequest(db.pool, request.id))?.status).toBe("success");
    const [fills] = await fillsOfRequests(db.pool, [request.id]);
    expect(fills).toMatchObject([{ txHash: signature, logIndex: 2, amount: 990n }]);
    await receipts.close();
  });
});
