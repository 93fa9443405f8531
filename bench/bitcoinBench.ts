import { Psbt } from "bitcoinjs-lib";
import { zeroAddress } from "viem";
import { ecPair } from "../devnet/bitcoin/ecPair.js";
import { BITCOIN_NATIVE_CURRENCY } from "../src/chains/bitcoin/bitcoinFamily.js";
import { familyPollerChains } from "../apps/families/familyPollerChains.js";
import { postQuote } from "../test/support/postQuote.js";
import { missed, roundMs, runFamilyLatencyBench } from "./familyLatencyBench.js";
import type { MachineInfo } from "./machineInfo.js";
import { type Summary, summarize } from "./percentiles.js";
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
  const result = await runFamilyLatencyBench(
    {
      benchmark: "bitcoin",
      stack: { bitcoin: true },
      starting: "devnet Esplora mined on demand, anvil, Postgres, Ponder, poller, worker, API",
      count: options.deposits,
      timeoutMs: options.timeoutMs,
      samplesKey: "deposits",
      noun: "deposit",
      describeLoad: `${options.deposits} deposits of ${options.amountSats} sats, one at a time`,
      async prepare({ stack }) {
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
        const factIn = async (txid: string, blockHash: string) =>
          (
            await stack.pool.query(
              "SELECT 1 FROM crossfill.deposit_facts WHERE chain_id = $1 AND tx_hash = $2 AND block_hash = $3",
              [chain.id, txid, blockHash],
            )
          ).rowCount! > 0;
        return { btc, chain, pollEveryMs, tipSamples, mempoolSamples, factIn };
      },
      async one({ btc, chain, factIn }, index, { stack, statusAt, waitUntil }) {
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
        if (quote.status !== 200)
          throw new Error(`quote ${index} failed: ${quote.status} ${JSON.stringify(quote.body)}`);
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
        const mempoolFactAt = await waitUntil(() => factIn(txid, ""));
        const pendingRow = await waitUntil(async () => (await statusAt(requestId, "pending")) !== null);
        const pendingAt = pendingRow === null ? null : await statusAt(requestId, "pending");
        if (pendingAt === null) {
          btc.mine(1);
          return missed(requestId, "no pending row");
        }

        const [blockHash] = btc.mine(1);
        const blockAt = wallClockMs();
        const blockFactAt = await waitUntil(() => factIn(txid, blockHash!));
        await waitUntil(async () => (await statusAt(requestId, "submitted")) !== null);
        const submittedAt = await statusAt(requestId, "submitted");
        await waitUntil(async () => (await statusAt(requestId, "success")) !== null);
        const successAt = await statusAt(requestId, "success");
        if (submittedAt === null) return missed(requestId, "no submitted row");
        return {
          sample: {
            requestId,
            txid,
            broadcastPostMs: roundMs(broadcastAt - postStarted),
            broadcastToMempoolFactVisible: mempoolFactAt === null ? null : roundMs(mempoolFactAt - broadcastAt),
            broadcastToPending: roundMs(pendingAt - broadcastAt),
            blockToBlockFactVisible: blockFactAt === null ? null : roundMs(blockFactAt - blockAt),
            blockToSubmitted: roundMs(submittedAt - blockAt),
            blockToSuccess: successAt === null ? null : roundMs(successAt - blockAt),
          } satisfies BitcoinDepositTiming,
        };
      },
      progress: (d) => `pending +${d.broadcastToPending} ms, submitted +${d.blockToSubmitted} ms`,
      finish(deposits, { btc, pollEveryMs, tipSamples, mempoolSamples }) {
        const pick = (f: (d: BitcoinDepositTiming) => number | null) =>
          deposits.map(f).filter((value): value is number => value !== null);
        return {
          setup: {
            stack:
              "startTestStack({bitcoin: true}): devnet Esplora in the bench process mined on demand, its poller every 100 ms (a tenth of the chain's configured 1 s block time), 2 anvil chains with 1 s blocks, fresh Postgres database, Ponder, BullMQ on Redis, worker and API in the bench process",
            load: `${options.deposits} BTC → ETH deposits of ${options.amountSats} sats (one confirmation) from ${btc.accounts.length} accounts in turn, one at a time: quote, sign, POST /tx, wait for pending; mine one block, wait for submitted and success`,
            broadcastTime:
              "local wall clock when the devnet Esplora's POST /tx answered (the transaction is in its mempool)",
            blockTime: "local wall clock when mine(1) returned (the block is on the devnet Esplora; same process)",
            statusTimes:
              "crossfill.status_events.created_at (Postgres now(): the writing transaction's start), epoch ms",
            factTimes:
              "local wall clock at which a 5 ms poll first saw the deposit in crossfill.deposit_facts (mempool, then block)",
            deposits: options.deposits,
            amountSats: options.amountSats.toString(),
            timeoutMs: options.timeoutMs,
          },
          head: {},
          tail: {
            floor: { pollEveryMs, esploraTipMs: summarize(tipSamples), esploraMempoolMs: summarize(mempoolSamples) },
          },
          latencyMs: {
            broadcastToPending: summarize(pick((d) => d.broadcastToPending)),
            broadcastToMempoolFactVisible: summarizeSome(pick((d) => d.broadcastToMempoolFactVisible)),
            blockToSubmitted: summarize(pick((d) => d.blockToSubmitted)),
            blockToBlockFactVisible: summarizeSome(pick((d) => d.blockToBlockFactVisible)),
            blockToSuccess: summarizeSome(pick((d) => d.blockToSuccess)),
            broadcastPost: summarize(pick((d) => d.broadcastPostMs)),
          },
        };
      },
      targets(deposits) {
        const succeeded = deposits.filter((d) => d.blockToSuccess !== null).length;
        return [
          {
            metric: "deposits that reached submitted",
            target: `${options.deposits}`,
            measured: deposits.length,
            met: deposits.length === options.deposits,
          },
          {
            metric: "deposits that reached success",
            target: `${options.deposits}`,
            measured: succeeded,
            met: succeeded === options.deposits,
          },
        ];
      },
    },
    log,
  );
  return result as BitcoinBenchResult;
}
