import { Psbt } from "bitcoinjs-lib";
import { zeroAddress } from "viem";
import { ecPair } from "../devnet/bitcoin/ecPair.js";
import { BITCOIN_NATIVE_CURRENCY } from "../src/chains/bitcoin/bitcoinFamily.js";
import { familyPollerChains } from "../apps/families/familyPollerChains.js";
import { postQuote } from "../test/support/postQuote.js";
import { startTestStack } from "../test/support/startTestStack.js";
import { type MachineInfo, gitCommit, machineInfo } from "./machineInfo.js";
import { type Summary, summarize } from "./percentiles.js";
import { peakRssMbByGroup } from "./peakRss.js";
import { statusEvents } from "./statusEvents.js";
import { cpuBetween, cpuSnapshot } from "./processCpu.js";
import type { Target } from "./target.js";
import { wallClockMs } from "./wallClock.js";

export type BitcoinBenchOptions = { deposits: number; amountSats: bigint; timeoutMs: number };
/** 0.01 BTC is $600 at the test price: one confirmation. */
export const defaultBitcoinBenchOptions: BitcoinBenchOptions = {
  deposits: 25,
  amountSats: 1_000_000n,
  timeoutMs: 30_000,
};

/** One deposit's times, ms: from the broadcast's answer (in the mempool) and from the mined block (on Esplora). */
export type BitcoinDepositTiming = {
  requestId: string;
  txid: string;
  broadcastPostMs: number;
  broadcastToMempoolFactVisible: number | null;
  broadcastToPending: number;
  blockToBlockFactVisible: number | null;
  blockToSubmitted: number;
  blockToSuccess: number | null;
};

export type BitcoinBenchResult = {
  benchmark: "bitcoin";
  date: string;
  commit: string;
  machine: MachineInfo;
  setup: Record<string, unknown>;
  completed: number;
  failed: Array<{ requestId: string; statuses: string[]; error?: string }>;
  /** What a poller pass costs at best in this run: its Esplora calls' round trips, and the wait between passes. */
  floor: { pollEveryMs: number; esploraTipMs: Summary; esploraMempoolMs: Summary };
  latencyMs: {
    broadcastToPending: Summary;
    broadcastToMempoolFactVisible: Summary | null;
    blockToSubmitted: Summary;
    blockToBlockFactVisible: Summary | null;
    blockToSuccess: Summary | null;
    broadcastPost: Summary;
  };
  cpuMsByProcess: Record<string, number>;
  peakRssMb: Record<string, { maxMb: number; processes: number }>;
  deposits: BitcoinDepositTiming[];
  targets: Target[];
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (value: number) => Math.round(value * 100) / 100;
const summarizeSome = (samples: number[]): Summary | null => (samples.length ? summarize(samples) : null);

/**
 * Bitcoin → EVM on the devnet: the full stack of startTestStack({bitcoin: true}) (the devnet Esplora mined on
 * demand, its poller every tenth of the chain's 1 s block time, reconcile, BullMQ, the solver on an anvil with 1 s
 * blocks). One deposit at a time (quote, sign the PSBT, POST /tx, wait for `pending`; mine one block, wait for
 * `submitted` and `success`), so each latency is its own and not a queue's. Times of the status rows are their
 * `created_at` (Postgres' clock, the same machine); the facts' visibility is a 5 ms poll of crossfill.deposit_facts.
 */
export async function bitcoinBench(
  options: BitcoinBenchOptions,
  log: (line: string) => void,
): Promise<BitcoinBenchResult> {
  const date = new Date();
  const machine = machineInfo();
  log("bitcoin: starting the stack (devnet Esplora mined on demand, anvil, Postgres, Ponder, poller, worker, API)");
  const stack = await startTestStack({ bitcoin: true });
  stack.pool.on("error", (error) => log(`pool error (ignored): ${error.message}`));
  try {
    const btc = stack.bitcoin!.devnet;
    const chain = stack.bitcoin!.chain;
    const pollEveryMs = familyPollerChains([chain], stack.pool)[0]!.pollEveryMs ?? 5_000;
    const esplora = async (path: string) => {
      const started = wallClockMs();
      const response = await fetch(`${btc.esploraUrl}${path}`);
      await response.arrayBuffer();
      return wallClockMs() - started;
    };
    const tipSamples: number[] = [];
    const mempoolSamples: number[] = [];
    for (let i = 0; i < 50; i++) {
      tipSamples.push(await esplora("/blocks/tip/height"));
      mempoolSamples.push(await esplora(`/address/${chain.depository}/txs/mempool`));
    }

    /** Polls `probe` every 5 ms until it is true; the local time it first was, or null after the timeout. */
    const waitUntil = async (probe: () => Promise<boolean>, timeoutMs: number): Promise<number | null> => {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (await probe()) return wallClockMs();
        await sleep(5);
      }
      return null;
    };
    const { at: statusAt, of: statusesOf } = statusEvents(stack.pool);
    const factIn = async (txid: string, blockHash: string) =>
      (
        await stack.pool.query(
          "SELECT 1 FROM crossfill.deposit_facts WHERE chain_id = $1 AND tx_hash = $2 AND block_hash = $3",
          [chain.id, txid, blockHash],
        )
      ).rowCount! > 0;

    log(`bitcoin: ${options.deposits} deposits of ${options.amountSats} sats, one at a time`);
    const cpuBefore = cpuSnapshot();
    const deposits: BitcoinDepositTiming[] = [];
    const failed: BitcoinBenchResult["failed"] = [];
    for (let index = 0; index < options.deposits; index++) {
      const account = btc.accounts[index % btc.accounts.length]!;
      const quote = await postQuote(stack.api.url, {
        user: account.address,
        recipient: stack.devnet.accounts[1].address,
        originChainId: chain.id,
        destinationChainId: stack.devnet.chains[0].id,
        originCurrency: BITCOIN_NATIVE_CURRENCY,
        destinationCurrency: zeroAddress,
        amount: options.amountSats.toString(),
        tradeType: "EXACT_INPUT",
      });
      if (quote.status !== 200) throw new Error(`quote ${index} failed: ${quote.status} ${JSON.stringify(quote.body)}`);
      const [step] = quote.body.steps;
      const requestId = step.requestId as string;
      const psbt = Psbt.fromHex(step.items[0].data.psbt, { network: btc.network });
      psbt.signAllInputs(ecPair.fromWIF(account.wif, btc.network));
      psbt.finalizeAllInputs();
      const hex = psbt.extractTransaction().toHex();

      const postStarted = wallClockMs();
      const posted = await fetch(`${btc.esploraUrl}/tx`, { method: "POST", body: hex });
      const broadcastAt = wallClockMs();
      const txid = await posted.text();
      if (posted.status !== 200) throw new Error(`broadcast ${index} refused: ${txid}`);
      const mempoolFactAt = await waitUntil(() => factIn(txid, ""), options.timeoutMs);
      const pendingRow = await waitUntil(
        async () => (await statusAt(requestId, "pending")) !== null,
        options.timeoutMs,
      );
      const pendingAt = pendingRow === null ? null : await statusAt(requestId, "pending");
      if (pendingAt === null) {
        failed.push({ requestId, statuses: await statusesOf(requestId), error: "no pending row" });
        btc.mine(1);
        continue;
      }

      const [blockHash] = btc.mine(1);
      const blockAt = wallClockMs();
      const blockFactAt = await waitUntil(() => factIn(txid, blockHash!), options.timeoutMs);
      await waitUntil(async () => (await statusAt(requestId, "submitted")) !== null, options.timeoutMs);
      const submittedAt = await statusAt(requestId, "submitted");
      await waitUntil(async () => (await statusAt(requestId, "success")) !== null, options.timeoutMs);
      const successAt = await statusAt(requestId, "success");
      if (submittedAt === null) {
        failed.push({ requestId, statuses: await statusesOf(requestId), error: "no submitted row" });
        continue;
      }
      deposits.push({
        requestId,
        txid,
        broadcastPostMs: round(broadcastAt - postStarted),
        broadcastToMempoolFactVisible: mempoolFactAt === null ? null : round(mempoolFactAt - broadcastAt),
        broadcastToPending: round(pendingAt - broadcastAt),
        blockToBlockFactVisible: blockFactAt === null ? null : round(blockFactAt - blockAt),
        blockToSubmitted: round(submittedAt - blockAt),
        blockToSuccess: successAt === null ? null : round(successAt - blockAt),
      });
      log(
        `bitcoin: ${index + 1}/${options.deposits} pending +${round(pendingAt - broadcastAt)} ms, submitted +${round(submittedAt - blockAt)} ms`,
      );
    }
    const cpuMsByProcess = cpuBetween(cpuBefore, cpuSnapshot());
    const peakRssMb = peakRssMbByGroup();
    if (deposits.length === 0) throw new Error(`no deposit completed: ${JSON.stringify(failed.slice(0, 3))}`);

    const pick = (f: (d: BitcoinDepositTiming) => number | null) =>
      deposits.map(f).filter((value): value is number => value !== null);
    const latencyMs = {
      broadcastToPending: summarize(pick((d) => d.broadcastToPending)),
      broadcastToMempoolFactVisible: summarizeSome(pick((d) => d.broadcastToMempoolFactVisible)),
      blockToSubmitted: summarize(pick((d) => d.blockToSubmitted)),
      blockToBlockFactVisible: summarizeSome(pick((d) => d.blockToBlockFactVisible)),
      blockToSuccess: summarizeSome(pick((d) => d.blockToSuccess)),
      broadcastPost: summarize(pick((d) => d.broadcastPostMs)),
    };
    const targets: Target[] = [
      {
        metric: "deposits that reached submitted",
        target: `${options.deposits}`,
        measured: deposits.length,
        met: deposits.length === options.deposits,
      },
      {
        metric: "deposits that reached success",
        target: `${options.deposits}`,
        measured: pick((d) => d.blockToSuccess).length,
        met: pick((d) => d.blockToSuccess).length === options.deposits,
      },
    ];
    return {
      benchmark: "bitcoin",
      date: date.toISOString(),
      commit: gitCommit(),
      machine,
      setup: {
        stack:
          "startTestStack({bitcoin: true}): devnet Esplora in the bench process mined on demand, its poller every 100 ms (a tenth of the chain's configured 1 s block time), 2 anvil chains with 1 s blocks, fresh Postgres database, Ponder, BullMQ on Redis, worker and API in the bench process",
        load: `${options.deposits} BTC → ETH deposits of ${options.amountSats} sats (one confirmation) from ${btc.accounts.length} accounts in turn, one at a time: quote, sign, POST /tx, wait for pending; mine one block, wait for submitted and success`,
        broadcastTime:
          "local wall clock when the devnet Esplora's POST /tx answered (the transaction is in its mempool)",
        blockTime: "local wall clock when mine(1) returned (the block is on the devnet Esplora; same process)",
        statusTimes: "crossfill.status_events.created_at (Postgres now(): the writing transaction's start), epoch ms",
        factTimes:
          "local wall clock at which a 5 ms poll first saw the deposit in crossfill.deposit_facts (mempool, then block)",
        deposits: options.deposits,
        amountSats: options.amountSats.toString(),
        timeoutMs: options.timeoutMs,
      },
      completed: deposits.length,
      failed,
      floor: { pollEveryMs, esploraTipMs: summarize(tipSamples), esploraMempoolMs: summarize(mempoolSamples) },
      latencyMs,
      cpuMsByProcess,
      peakRssMb,
      deposits,
      targets,
    };
  } finally {
    await stack.stop();
  }
}
