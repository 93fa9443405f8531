import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ecPair } from "../../../devnet/bitcoin/ecPair.js";
import { type DevnetBitcoin, startDevnetBitcoin } from "../../../devnet/bitcoin/startDevnetBitcoin.js";
import type { StoredFillAttempt } from "../../../schema/fillAttempts.js";
import { bumpPayoutFee } from "./bumpPayoutFee.js";
import { type EsploraClient, createEsploraClient } from "./createEsploraClient.js";
import { followBitcoinFill } from "./followBitcoinFill.js";
import { signPayout } from "./signPayout.js";

const POLICY = { bumpAfterMs: 30_000, maxBumps: 2, maxBroadcastFailures: 2 };

describe("followBitcoinFill", () => {
  let btc: DevnetBitcoin;
  let esplora: EsploraClient;
  beforeAll(async () => {
    btc = await startDevnetBitcoin({ blockTimeMs: 0 });
    esplora = createEsploraClient({ esploraUrl: btc.esploraUrl, chainId: 8253038 });
  });
  afterAll(async () => {
    await btc?.stop();
  });

  const signer = () => ecPair.fromWIF(btc.solver.wif, btc.network);
  /** A stored payout of the solver's, as the fill job keeps it (not broadcast). */
  async function storedPayout(amount: bigint): Promise<StoredFillAttempt> {
    const utxos = (await esplora.utxos(btc.solver.address))
      .filter((utxo) => utxo.status.confirmed)
      .map((utxo) => ({ txid: utxo.txid, vout: utxo.vout, value: BigInt(utxo.value) }));
    const payout = signPayout({
      network: btc.network,
      solver: btc.solver.address,
      signer: signer(),
      utxos,
      recipient: btc.accounts[1]!.address,
      amount,
      orderId: `0x${"77".repeat(32)}`,
      feeRate: 1,
    });
    return {
      requestId: "0xrequest",
      chainId: 8253038,
      solver: btc.solver.address,
      nonce: null,
      txHash: payout.txHash,
      rawTx: payout.rawTx,
      currency: "btc",
      amount,
      recipient: btc.accounts[1]!.address,
      sentAt: new Date(1_000_000),
      bumps: 0,
      previousTxHashes: [],
      cancelTxHash: null,
      cancelRawTx: null,
      broadcastFailures: 0,
    };
  }
  /** The deps as the adapter wires them, with the store in memory. */
  function deps(attempt: StoredFillAttempt, now: number) {
    const log = { stored: [] as string[], failures: 0 };
    return {
      log,
      deps: {
        esplora,
        policy: POLICY,
        now,
        bump: async (rawTx: string, inputValues: bigint[]) =>
          bumpPayoutFee({
            network: btc.network,
            solver: btc.solver.address,
            signer: signer(),
            rawTx,
            inputValues,
            feeRate: 1,
            maxFeeRate: 500,
          }),
        storeReplacement: async (replaced: string, next: { rawTx: string; txHash: string }) => {
          expect(replaced).toBe(attempt.txHash);
          log.stored.push(next.txHash);
          return true;
        },
        recordBroadcastFailure: async () => ++log.failures,
      },
    };
  }

  it("sends a stored payout the node lacks, waits, replaces it when stuck, and reports the version mined", async () => {
    const attempt = await storedPayout(40_000n);
    const first = deps(attempt, 1_000_000 + 1_000);
    expect(await followBitcoinFill(attempt, first.deps)).toEqual({
      state: "in-flight",
      txHash: attempt.txHash,
      action: "re-sent",
    });
    expect((await esplora.txStatus(attempt.txHash))?.confirmed).toBe(false);
    // In the mempool and not stuck yet: nothing to do.
    expect(await followBitcoinFill(attempt, first.deps)).toMatchObject({ state: "in-flight", action: "re-sent" });
    expect(first.log.stored).toEqual([]);

    const late = deps(attempt, 1_000_000 + POLICY.bumpAfterMs);
    const bumped = await followBitcoinFill(attempt, late.deps);
    expect(bumped).toMatchObject({ state: "in-flight", action: "bumped" });
    const replacement = (bumped as { txHash: string }).txHash;
    expect(late.log.stored).toEqual([replacement]);
    // The node took the replacement (full RBF): the first version is gone.
    expect(await esplora.txStatus(attempt.txHash)).toBeUndefined();
    const [old, next] = [await esplora.tx(attempt.txHash), await esplora.tx(replacement)];
    expect(old).toBeUndefined();
    expect(next!.vout[0]!.value).toBe(40_000);

    btc.mine(1);
    const stored = { ...attempt, txHash: replacement, previousTxHashes: [attempt.txHash], bumps: 1 };
    const mined = await followBitcoinFill(stored, deps(stored, Date.now()).deps);
    expect(mined).toEqual({
      state: "mined",
      txHash: replacement,
      blockNumber: BigInt(await esplora.tipHeight()),
      fee: BigInt(next!.fee),
    });
  });

  it("gives up on a payout the node never takes after maxBroadcastFailures, retrying before", async () => {
    const attempt = await storedPayout(30_000n);
    // Its input is spent by another payout, mined first.
    const rival = await storedPayout(31_000n);
    await esplora.broadcast(rival.rawTx);
    btc.mine(1);
    const { deps: first, log } = deps(attempt, Date.now());
    await expect(followBitcoinFill(attempt, first)).rejects.toMatchObject({ errorCode: "RPC_HTTP_ERROR" });
    expect(log.failures).toBe(1);
    expect(await followBitcoinFill(attempt, first)).toEqual({
      state: "cancelled",
      nonceSpentBy: "",
      neverAccepted: true,
    });
  });
});
