import { familyPollerChains } from "../apps/families/familyPollerChains.js";
import { hypevmFactories } from "../apps/families/hypevmFactories.js";
import { devnetExchangeChain } from "../devnet/hypevm/devnetExchangeChain.js";
import { hypevmChainConfigSchema } from "../src/chains/hypevm/hypevmChainFamily.js";
import { PERPS_USDC_CURRENCY } from "../src/chains/hypevm/hypevmFamily.js";
import { SEND_ASSET_TYPES } from "../src/chains/hypevm/sendAssetTypes.js";
import { signExchangeAction } from "../src/chains/hypevm/signExchangeAction.js";
import { postQuote } from "../test/support/postQuote.js";
import { missed, roundMs, runFamilyLatencyBench } from "./familyLatencyBench.js";
import type { MachineInfo } from "./machineInfo.js";
import { type Summary, summarize } from "./percentiles.js";
import type { Target } from "./target.js";
import { wallClockMs } from "./wallClock.js";

export type ExchangeBenchOptions = { withdrawals: number; amount: bigint; timeoutMs: number };
/** 10 perps USDC (8 decimals) each. */
export const defaultExchangeBenchOptions: ExchangeBenchOptions = {
  withdrawals: 20,
  amount: 1_000_000_000n,
  timeoutMs: 30_000,
};

/** One withdrawal's times, ms from the exchange's answer accepting the user's transfer. */
export type ExchangeWithdrawalTiming = {
  requestId: string;
  exchangePostMs: number;
  acceptedToPending: number;
  acceptedToSuccess: number;
};

export type ExchangeBenchResult = {
  benchmark: "exchange";
  date: string;
  commit: string;
  machine: MachineInfo;
  setup: Record<string, unknown>;
  completed: number;
  failed: Array<{ requestId: string; statuses: string[]; error?: string }>;
  /** What a poller pass costs at best: one `userNonFundingLedgerUpdates` round trip, and the wait between passes. */
  floor: { pollEveryMs: number; ledgerUpdatesMs: Summary };
  latencyMs: { acceptedToPending: Summary; acceptedToSuccess: Summary; exchangePost: Summary };
  cpuMsByProcess: Record<string, number>;
  peakRssMb: Record<string, { maxMb: number; processes: number }>;
  withdrawals: ExchangeWithdrawalTiming[];
  targets: Target[];
};

/**
 * Perps exchange → EVM on the devnet: the full stack of startTestStack({exchange: true}) (the devnet exchange in the
 * bench process, its ledger poller every 250 ms, reconcile, BullMQ, the solver on an anvil with 1 s blocks). One
 * withdrawal at a time (quote, authorize, the user's signed sendAsset posted to the exchange; wait for `pending` and
 * `success`), so each latency is its own. Times of the status rows are their `created_at` (Postgres' clock, the same
 * machine), measured from the local wall clock when the exchange answered the transfer `ok`.
 */
export async function exchangeBench(
  options: ExchangeBenchOptions,
  log: (line: string) => void,
): Promise<ExchangeBenchResult> {
  const result = await runFamilyLatencyBench(
    {
      benchmark: "exchange",
      stack: { exchange: true },
      starting: "devnet exchange, anvil, Postgres, Ponder, exchange poller, worker, API",
      count: options.withdrawals,
      timeoutMs: options.timeoutMs,
      samplesKey: "withdrawals",
      noun: "withdrawal",
      describeLoad: `${options.withdrawals} withdrawals of ${options.amount} perps USDC units, one at a time`,
      async prepare({ stack }) {
        const exchange = stack.devnetOf(hypevmFactories)!;
        const chain = hypevmChainConfigSchema.parse(devnetExchangeChain(exchange));
        const pollEveryMs = familyPollerChains([chain], stack.pool)[0]!.pollEveryMs ?? 250;
        const destination = stack.devnet.chains[0]!;
        const usdc = destination.currencies.find((currency) => currency.symbol === "USDC")!.address;
        const ledgerSamples: number[] = [];
        for (let i = 0; i < 50; i++) {
          const started = wallClockMs();
          const response = await fetch(`${exchange.url}/info`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              type: "userNonFundingLedgerUpdates",
              user: exchange.depository.address,
              startTime: 0,
            }),
          });
          await response.arrayBuffer();
          ledgerSamples.push(wallClockMs() - started);
        }
        return { exchange, pollEveryMs, destination, usdc, ledgerSamples };
      },
      async one({ exchange, destination, usdc }, index, { stack, waitForStatus }) {
        const user = exchange.accounts[index % exchange.accounts.length]!;
        const quote = await postQuote(stack.api.url, {
          user: user.address,
          recipient: stack.devnet.accounts[1].address,
          originChainId: 1337,
          destinationChainId: destination.id,
          originCurrency: PERPS_USDC_CURRENCY,
          destinationCurrency: usdc,
          amount: options.amount.toString(),
          tradeType: "EXACT_INPUT",
          protocolVersion: "v2",
        });
        if (quote.status !== 200)
          throw new Error(`quote ${index} failed: ${quote.status} ${JSON.stringify(quote.body)}`);
        const requestId = quote.body.requestId as string;
        const { sign, post } = quote.body.steps[0].items[0].data;
        const signature = await user.signTypedData({ ...sign, message: sign.value });
        const authorized = await fetch(`${stack.api.url}${post.endpoint}?signature=${signature}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(post.body),
        });
        if (authorized.status !== 200) throw new Error(`authorize ${index} refused: ${await authorized.text()}`);
        const { parameters } = quote.body.steps[1].items[0].data.action;
        const signed = await signExchangeAction(
          user,
          { type: "sendAsset", signatureChainId: "0xa4b1", ...parameters },
          SEND_ASSET_TYPES,
        );
        const postStarted = wallClockMs();
        const answer = await fetch(`${exchange.url}/exchange`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(signed),
        }).then((response) => response.json());
        const acceptedAt = wallClockMs();
        if (answer.status !== "ok") throw new Error(`transfer ${index} refused: ${JSON.stringify(answer)}`);
        const pendingAt = await waitForStatus(requestId, "pending");
        const successAt = pendingAt === null ? null : await waitForStatus(requestId, "success");
        if (pendingAt === null || successAt === null) return missed(requestId, "no pending or success row");
        return {
          sample: {
            requestId,
            exchangePostMs: roundMs(acceptedAt - postStarted),
            acceptedToPending: roundMs(pendingAt - acceptedAt),
            acceptedToSuccess: roundMs(successAt - acceptedAt),
          } satisfies ExchangeWithdrawalTiming,
        };
      },
      progress: (w) => `pending +${w.acceptedToPending} ms, success +${w.acceptedToSuccess} ms`,
      finish(withdrawals, { exchange, pollEveryMs, ledgerSamples }) {
        const pick = (f: (w: ExchangeWithdrawalTiming) => number) => withdrawals.map(f);
        return {
          setup: {
            stack: `startTestStack({exchange: true}): devnet exchange in the bench process, its ledger poller every ${pollEveryMs} ms, 2 anvil chains with 1 s blocks, fresh Postgres database, Ponder, BullMQ on Redis, worker and API in the bench process`,
            load: `${options.withdrawals} perps USDC → EVM USDC withdrawals of ${options.amount} units (8 decimals) from ${exchange.accounts.length} accounts in turn, one at a time: quote, authorize, sign and POST /exchange, wait for pending and success`,
            acceptedTime: "local wall clock when the devnet exchange answered the transfer {status: ok} (same process)",
            statusTimes:
              "crossfill.status_events.created_at (Postgres now(): the writing transaction's start), epoch ms",
            withdrawals: options.withdrawals,
            amount: options.amount.toString(),
            timeoutMs: options.timeoutMs,
          },
          head: {},
          tail: { floor: { pollEveryMs, ledgerUpdatesMs: summarize(ledgerSamples) } },
          latencyMs: {
            acceptedToPending: summarize(pick((w) => w.acceptedToPending)),
            acceptedToSuccess: summarize(pick((w) => w.acceptedToSuccess)),
            exchangePost: summarize(pick((w) => w.exchangePostMs)),
          },
        };
      },
      targets: (withdrawals) => [
        {
          metric: "withdrawals that reached success",
          target: `${options.withdrawals}`,
          measured: withdrawals.length,
          met: withdrawals.length === options.withdrawals,
        },
      ],
    },
    log,
  );
  return result as ExchangeBenchResult;
}
