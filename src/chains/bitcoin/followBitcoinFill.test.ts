import { Transaction } from "bitcoinjs-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UpstreamFailureError } from "../../domain/errors.js";
import { ecPair } from "../../../devnet/bitcoin/ecPair.js";
import { type DevnetBitcoin, startDevnetBitcoin } from "../../../devnet/bitcoin/startDevnetBitcoin.js";
import type { StoredFillAttempt } from "../fillLedger.js";
import { BroadcastRefusedError } from "./BroadcastRefusedError.js";
import { bumpPayoutFee } from "./bumpPayoutFee.js";
import { cancelPayout } from "./cancelPayout.js";
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
  /** The solver's wallet as bumps and cancellations sign with it, at 1 sat/vB. */
  const wallet = () => ({ network: btc.network, solver: btc.solver.address, signer: signer(), feeRate: 1 });
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
    const log = { stored: [] as string[], failures: 0, cancels: [] as string[], cancelRaw: [] as string[] };
    return {
      log,
      deps: {
        esplora,
        policy: POLICY,
        now,
        cancelConfirmations: 2,
        bump: async (rawTx: string, inputValues: bigint[]) =>
          bumpPayoutFee({ ...wallet(), rawTx, inputValues, maxFeeRate: 500 }),
        storeReplacement: async (replaced: string, next: { rawTx: string; txHash: string }) => {
          expect(replaced).toBe(attempt.txHash);
          log.stored.push(next.txHash);
          return true;
        },
        recordBroadcastFailure: async () => ++log.failures,
        cancel: async (rawTx: string, inputValues: bigint[]) => cancelPayout({ ...wallet(), rawTx, inputValues }),
        storeCancel: async (next: { rawTx: string; txHash: string }) => {
          log.cancels.push(next.txHash);
          log.cancelRaw.push(next.rawTx);
          return true;
        },
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

  it("retries a broadcast that fails in transport (network, 5xx): never counted as the node's refusal", async () => {
    const attempt = await storedPayout(20_000n);
    const unreachable = createEsploraClient({ esploraUrl: "http://127.0.0.1:1", chainId: 8253038 });
    const { deps: base, log } = deps(attempt, Date.now());
    const cut = { ...base, esplora: { ...esplora, broadcast: unreachable.broadcast } };
    for (let run = 0; run < POLICY.maxBroadcastFailures + 3; run++)
      await expect(followBitcoinFill(attempt, cut)).rejects.toMatchObject({ errorCode: "RPC_HTTP_ERROR" });
    expect(log.failures).toBe(0);
    expect(log.cancels).toEqual([]);
  });

  /**
   * Our node refuses the payout and does not show it (its mempool policy, a lagging backend), while it reached other
   * nodes' mempools: it can still be mined. `transportDown` also cuts every other broadcast of ours off.
   */
  function refusingNode(payout: StoredFillAttempt, options: { transportDown?: boolean } = {}) {
    const hidden = async (txid: string) =>
      txid === payout.txHash && !(await esplora.txStatus(txid))?.confirmed ? undefined : esplora.txStatus(txid);
    return {
      ...esplora,
      txStatus: hidden,
      tx: async (txid: string) => ((await hidden(txid)) === undefined ? undefined : esplora.tx(txid)),
      broadcast: async (hex: string) => {
        if (hex === payout.rawTx) throw new BroadcastRefusedError("mempool min fee not met");
        if (options.transportDown) throw new UpstreamFailureError("Esplora answered 502 to POST /tx");
        return esplora.broadcast(hex);
      },
    };
  }

  it("cancels a payout the node refuses by replacing its inputs with a self-spend, refunded only once that confirms", async () => {
    let attempt = await storedPayout(30_000n);
    btc.chain.submit(attempt.rawTx);
    const { deps: base, log } = deps(attempt, Date.now());
    const node = refusingNode(attempt);
    const run = async () => {
      const outcome = followBitcoinFill(attempt, { ...base, esplora: node });
      return { outcome: await outcome.catch((error: unknown) => error), log };
    };
    expect((await run()).outcome).toMatchObject({ errorCode: "RPC_HTTP_ERROR" });
    // The second refusal: not `cancelled` (the payout may still be mined elsewhere) but a cancellation on its way.
    const second = await run();
    expect(second.outcome).toMatchObject({ state: "in-flight", action: "cancelling" });
    const cancelTxHash = (second.outcome as { txHash: string }).txHash;
    expect(second.log.cancels).toEqual([cancelTxHash]);
    attempt = { ...attempt, cancelTxHash, cancelRawTx: second.log.cancelRaw[0]! };
    const [payout, cancel] = [Transaction.fromHex(attempt.rawTx), Transaction.fromHex(attempt.cancelRawTx!)];
    // The same inputs, everything back to the solver, at a higher fee: it replaced the payout in the mempool.
    expect(cancel.ins.map((input) => [Buffer.from(input.hash).toString("hex"), input.index])).toEqual(
      payout.ins.map((input) => [Buffer.from(input.hash).toString("hex"), input.index]),
    );
    expect((await esplora.tx(cancelTxHash))!.vout).toMatchObject([{ scriptpubkey_address: btc.solver.address }]);
    expect(await esplora.txStatus(attempt.txHash)).toBeUndefined();
    // Unconfirmed, it is still being cancelled; confirmed, the payout can never be mined: cancelled.
    expect((await run()).outcome).toMatchObject({ state: "in-flight", action: "cancelling", txHash: cancelTxHash });
    // In a block, not yet buried under the chain's confirmations: a reorg could still bring the payout back.
    btc.mine(1);
    expect((await run()).outcome).toMatchObject({ state: "in-flight", action: "cancelling", txHash: cancelTxHash });
    btc.mine(1);
    expect((await run()).outcome).toEqual({ state: "cancelled", nonceSpentBy: cancelTxHash, neverAccepted: true });
    expect(await esplora.txStatus(attempt.txHash)).toBeUndefined();
  });

  it("reports a refused payout that is mined before its cancellation as mined, never cancelled", async () => {
    let attempt = await storedPayout(31_000n);
    btc.chain.submit(attempt.rawTx);
    const { deps: base, log } = deps(attempt, Date.now());
    const node = refusingNode(attempt, { transportDown: true });
    const run = async () => {
      const outcome = followBitcoinFill(attempt, { ...base, esplora: node });
      return { outcome: await outcome.catch((error: unknown) => error), log };
    };
    await run();
    const second = await run();
    expect(second.outcome).toMatchObject({ state: "in-flight", action: "cancelling" });
    attempt = { ...attempt, cancelTxHash: second.log.cancels[0]!, cancelRawTx: second.log.cancelRaw[0]! };
    // The cancellation never got out; the payout is mined elsewhere: it paid, and nothing is refunded.
    btc.mine(1);
    expect((await run()).outcome).toMatchObject({ state: "mined", txHash: attempt.txHash });
  });

  it("never cancels a payout whose cancellation cannot be stored (a settled request): it fails for an operator", async () => {
    const attempt = await storedPayout(34_000n);
    const { deps: base, log } = deps(attempt, Date.now());
    const settled = { ...base, esplora: refusingNode(attempt), storeCancel: async () => false };
    await expect(followBitcoinFill(attempt, settled)).rejects.toMatchObject({ errorCode: "RPC_HTTP_ERROR" });
    await expect(followBitcoinFill(attempt, settled)).rejects.toThrow(/cannot be cancelled here/);
    expect(log.cancels).toEqual([]);
  });

  it("calls a payout cancelled when another transaction, confirmed, spent its inputs and its cancellation is refused", async () => {
    const attempt = await storedPayout(32_000n);
    // Its input is spent by another payout, mined first (an operator's, say).
    const rival = await storedPayout(33_000n);
    await esplora.broadcast(rival.rawTx);
    btc.mine(2);
    const { deps: first, log } = deps(attempt, Date.now());
    await expect(followBitcoinFill(attempt, first)).rejects.toMatchObject({ errorCode: "RPC_HTTP_ERROR" });
    expect(log.failures).toBe(1);
    expect(await followBitcoinFill(attempt, first)).toEqual({
      state: "cancelled",
      nonceSpentBy: rival.txHash,
      neverAccepted: true,
    });
  });
});
