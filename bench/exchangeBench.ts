import { familyPollerChains } from "../apps/families/familyPollerChains.js";
import { hypevmFactories } from "../apps/families/hypevmFactories.js";
import { devnetExchangeChain } from "../devnet/hypevm/devnetExchangeChain.js";
import { hypevmChainConfigSchema } from "../src/chains/hypevm/hypevmChainFamily.js";
import { PERPS_USDC_CURRENCY } from "../src/chains/hypevm/hypevmFamily.js";
import { SEND_ASSET_TYPES } from "../src/chains/hypevm/sendAssetTypes.js";
import { signExchangeAction } from "../src/chains/hypevm/signExchangeAction.js";
import { postQuote } from "../test/support/postQuote.js";
import { startTestStack } from "../test/support/startTestStack.js";
import { type MachineInfo, gitCommit, machineInfo } from "./machineInfo.js";
import { type Summary, summarize } from "./percentiles.js";
import { peakRssMbByGroup } from "./peakRss.js";
import { statusEvents } from "./statusEvents.js";
import { cpuBetween, cpuSnapshot } from "./processCpu.js";
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (value: number) => Math.round(value * 100) / 100;

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
  const date = new Date();
  const machine = machineInfo();
  log("exchange: starting the stack (devnet exchange, anvil, Postgres, Ponder, exchange poller, worker, API)");
  const stack = await startTestStack({ exchange: true });
  stack.pool.on("error", (error) => log(`pool error (ignored): ${error.message}`));
  try {
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
        body: JSON.stringify({ type: "userNonFundingLedgerUpdates", user: exchange.depository.address, startTime: 0 }),
      });
      await response.arrayBuffer();
      ledgerSamples.push(wallClockMs() - started);
    }

    const { at: statusAt, of: statusesOf } = statusEvents(stack.pool);
    /** Polls for a status row every 5 ms; its `created_at`, or null after the timeout. */
    const waitForStatus = async (requestId: string, status: string): Promise<number | null> => {
      const deadline = Date.now() + options.timeoutMs;
      while (Date.now() < deadline) {
        const at = await statusAt(requestId, status);
        if (at !== null) return at;
        await sleep(5);
      }
      return null;
    };

    log(`exchange: ${options.withdrawals} withdrawals of ${options.amount} perps USDC units, one at a time`);
    const cpuBefore = cpuSnapshot();
    const withdrawals: ExchangeWithdrawalTiming[] = [];
    const failed: ExchangeBenchResult["failed"] = [];
    for (let index = 0; index < options.withdrawals; index++) {
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
      if (quote.status !== 200) throw new Error(`quote ${index} failed: ${quote.status} ${JSON.stringify(quote.body)}`);
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
      if (pendingAt === null || successAt === null) {
        failed.push({ requestId, statuses: await statusesOf(requestId), error: "no pending or success row" });
        continue;
      }
      withdrawals.push({
        requestId,
        exchangePostMs: round(acceptedAt - postStarted),
        acceptedToPending: round(pendingAt - acceptedAt),
        acceptedToSuccess: round(successAt - acceptedAt),
      });
      log(
        `exchange: ${index + 1}/${options.withdrawals} pending +${round(pendingAt - acceptedAt)} ms, success +${round(successAt - acceptedAt)} ms`,
      );
    }
    const cpuMsByProcess = cpuBetween(cpuBefore, cpuSnapshot());
    const peakRssMb = peakRssMbByGroup();
    if (withdrawals.length === 0) throw new Error(`no withdrawal completed: ${JSON.stringify(failed.slice(0, 3))}`);
    const pick = (f: (w: ExchangeWithdrawalTiming) => number) => withdrawals.map(f);
    return {
      benchmark: "exchange",
      date: date.toISOString(),
      commit: gitCommit(),
      machine,
      setup: {
        stack: `startTestStack({exchange: true}): devnet exchange in the bench process, its ledger poller every ${pollEveryMs} ms, 2 anvil chains with 1 s blocks, fresh Postgres database, Ponder, BullMQ on Redis, worker and API in the bench process`,
        load: `${options.withdrawals} perps USDC → EVM USDC withdrawals of ${options.amount} units (8 decimals) from ${exchange.accounts.length} accounts in turn, one at a time: quote, authorize, sign and POST /exchange, wait for pending and success`,
        acceptedTime: "local wall clock when the devnet exchange answered the transfer {status: ok} (same process)",
        statusTimes: "crossfill.status_events.created_at (Postgres now(): the writing transaction's start), epoch ms",
        withdrawals: options.withdrawals,
        amount: options.amount.toString(),
        timeoutMs: options.timeoutMs,
      },
      completed: withdrawals.length,
      failed,
      floor: { pollEveryMs, ledgerUpdatesMs: summarize(ledgerSamples) },
      latencyMs: {
        acceptedToPending: summarize(pick((w) => w.acceptedToPending)),
        acceptedToSuccess: summarize(pick((w) => w.acceptedToSuccess)),
        exchangePost: summarize(pick((w) => w.exchangePostMs)),
      },
      cpuMsByProcess,
      peakRssMb,
      withdrawals,
      targets: [
        {
          metric: "withdrawals that reached success",
          target: `${options.withdrawals}`,
          measured: withdrawals.length,
          met: withdrawals.length === options.withdrawals,
        },
      ],
    };
  } finally {
    await stack.stop();
  }
}
