import { Connection } from "@solana/web3.js";
import { zeroAddress } from "viem";
import { SOLANA_NATIVE_CURRENCY } from "../src/chains/svm/svmFamily.js";
import { paySolanaStep } from "../test/support/paySolanaStep.js";
import { postQuote } from "../test/support/postQuote.js";
import { missed, roundMs, runFamilyLatencyBench } from "./familyLatencyBench.js";
import type { MachineInfo } from "./machineInfo.js";
import { type Summary, summarize } from "./percentiles.js";
import type { Target } from "./target.js";
import { wallClockMs } from "./wallClock.js";

export type SolanaBenchOptions = { deposits: number; amountLamports: bigint; timeoutMs: number };
/** 0.1 SOL is $15 at the test price. */
export const defaultSolanaBenchOptions: SolanaBenchOptions = {
  deposits: 24,
  amountLamports: 100_000_000n,
  timeoutMs: 30_000,
};

/** One deposit's times, ms: from its landing (sendTransaction answered: processed) and from its finalization. */
export type SolanaDepositTiming = {
  requestId: string;
  signature: string;
  sendMs: number;
  landedToPending: number;
  landedToFinalized: number;
  finalizedToSuccess: number;
};

export type SolanaBenchResult = {
  benchmark: "solana";
  date: string;
  commit: string;
  machine: MachineInfo;
  setup: Record<string, unknown>;
  /** The devnet Solana's slot time and how many slots a transaction takes to turn confirmed and finalized. */
  slot: { slotMs: number; confirmedAfterSlots: number; finalizedAfterSlots: number };
  completed: number;
  failed: Array<{ requestId: string; statuses: string[]; error?: string }>;
  latencyMs: {
    landedToPending: Summary;
    landedToFinalized: Summary;
    finalizedToSuccess: Summary;
    send: Summary;
  };
  cpuMsByProcess: Record<string, number>;
  peakRssMb: Record<string, { maxMb: number; processes: number }>;
  deposits: SolanaDepositTiming[];
  targets: Target[];
};

/**
 * SOL → EVM on the devnet: the full stack of startTestStack({solana: true}) (the devnet Solana with its slot timer,
 * its poller, reconcile, BullMQ, the solver on an anvil with 1 s blocks). One deposit at a time (quote, compile and
 * sign the step's instructions as the SVM adapter does, send; wait for `pending`, the deposit's `finalized`, and
 * `success`), so each latency is its own and not a queue's. Status times are the rows' `created_at` (Postgres' clock,
 * the same machine); finalization is a 5 ms poll of getSignatureStatuses.
 */
export async function solanaBench(
  options: SolanaBenchOptions,
  log: (line: string) => void,
): Promise<SolanaBenchResult> {
  const result = await runFamilyLatencyBench(
    {
      benchmark: "solana",
      stack: { solana: true },
      starting: "devnet Solana, anvil, Postgres, Ponder, pollers, worker, API",
      count: options.deposits,
      timeoutMs: options.timeoutMs,
      samplesKey: "deposits",
      noun: "deposit",
      describeLoad: `${options.deposits} deposits of ${options.amountLamports} lamports, one at a time`,
      async prepare({ stack }) {
        const solana = stack.solana!;
        return { solana, connection: new Connection(solana.devnet.rpcUrl, "confirmed") };
      },
      async one({ solana, connection }, index, { stack, statusAt, waitUntil }) {
        const user = solana.devnet.accounts[index % solana.devnet.accounts.length]!;
        const quote = await postQuote(stack.api.url, {
          user: user.publicKey.toBase58(),
          recipient: stack.devnet.accounts[1].address,
          originChainId: solana.chain.id,
          destinationChainId: stack.devnet.chains[0].id,
          originCurrency: SOLANA_NATIVE_CURRENCY,
          destinationCurrency: zeroAddress,
          amount: options.amountLamports.toString(),
          tradeType: "EXACT_INPUT",
        });
        if (quote.status !== 200)
          throw new Error(`quote ${index} failed: ${quote.status} ${JSON.stringify(quote.body)}`);
        const [step] = quote.body.steps;
        const requestId = step.requestId as string;
        const sendStarted = wallClockMs();
        const { signature } = await paySolanaStep(connection, user, step.items[0].data);
        const landedAt = wallClockMs();
        await waitUntil(async () => (await statusAt(requestId, "pending")) !== null);
        const finalizedAt = await waitUntil(
          async () => (await connection.getSignatureStatuses([signature])).value[0]?.confirmationStatus === "finalized",
        );
        await waitUntil(async () => (await statusAt(requestId, "success")) !== null);
        const [pendingAt, successAt] = [await statusAt(requestId, "pending"), await statusAt(requestId, "success")];
        if (pendingAt === null || successAt === null || finalizedAt === null)
          return missed(requestId, "no pending or success row");
        return {
          sample: {
            requestId,
            signature,
            sendMs: roundMs(landedAt - sendStarted),
            landedToPending: roundMs(pendingAt - landedAt),
            landedToFinalized: roundMs(finalizedAt - landedAt),
            finalizedToSuccess: roundMs(successAt - finalizedAt),
          } satisfies SolanaDepositTiming,
        };
      },
      progress: (d) => `pending +${d.landedToPending} ms, success +${d.finalizedToSuccess} ms after finalized`,
      finish(deposits, { solana }) {
        const pick = (f: (d: SolanaDepositTiming) => number) => deposits.map(f);
        return {
          setup: {
            stack:
              "startTestStack({solana: true}): devnet Solana (litesvm behind the JSON-RPC) in the bench process with its slot timer, its poller, 2 anvil chains with 1 s blocks, fresh Postgres database, Ponder, BullMQ on Redis, worker and API in the bench process",
            load: `${options.deposits} SOL → ETH deposits of ${options.amountLamports} lamports from ${solana.devnet.accounts.length} accounts in turn, one at a time: quote, sign the step's instructions as a v0 transaction, sendTransaction; wait for pending, finalized, success`,
            landedTime:
              "local wall clock when sendTransaction answered (the devnet lands a transaction in the open slot: processed)",
            finalizedTime: "local wall clock at which a 5 ms poll of getSignatureStatuses first saw it finalized",
            statusTimes:
              "crossfill.status_events.created_at (Postgres now(): the writing transaction's start), epoch ms",
            deposits: options.deposits,
            amountLamports: options.amountLamports.toString(),
            timeoutMs: options.timeoutMs,
          },
          head: {
            slot: {
              slotMs: solana.devnet.slotMs,
              // As the devnet's commitments stand apart (a read, not its configuration copied).
              confirmedAfterSlots: solana.devnet.ledger.slot("processed") - solana.devnet.ledger.slot("confirmed"),
              finalizedAfterSlots: solana.devnet.ledger.slot("processed") - solana.devnet.ledger.slot("finalized"),
            },
          },
          tail: {},
          latencyMs: {
            landedToPending: summarize(pick((d) => d.landedToPending)),
            landedToFinalized: summarize(pick((d) => d.landedToFinalized)),
            finalizedToSuccess: summarize(pick((d) => d.finalizedToSuccess)),
            send: summarize(pick((d) => d.sendMs)),
          },
        };
      },
      targets: (deposits) => [
        {
          metric: "deposits that reached success",
          target: `${options.deposits}`,
          measured: deposits.length,
          met: deposits.length === options.deposits,
        },
      ],
    },
    log,
  );
  return result as SolanaBenchResult;
}
