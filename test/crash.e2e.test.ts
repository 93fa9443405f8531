import { type Address, encodeFunctionData, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callTargetAbi } from "../contracts/abis.js";
import { type CrashCluster, type Role, checkInvariants, startCrashCluster } from "./support/crashCluster.js";
import { pollStatus } from "./support/pollStatus.js";
import { postQuote } from "./support/postQuote.js";
import { sendSteps } from "./support/sendSteps.js";

const RECOVERY_LIMIT_MS = 20_000;

/**
 * The short crash harness: each role is SIGKILLed at a step of the flow and started again; the intent
 * still ends right, within the recovery limit, and the money invariants hold over everything.
 */
describe("crash safety", () => {
  let cluster: CrashCluster;
  beforeAll(async () => {
    cluster = await startCrashCluster();
  }, 180_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  async function intent(account: number, options: { failing?: boolean } = {}) {
    const [origin, destination] = cluster.devnet.chains;
    const value = 10n ** 16n;
    const quote = await postQuote(cluster.apiUrl, {
      user: cluster.devnet.accounts[account].address,
      originChainId: origin.id,
      destinationChainId: destination.id,
      originCurrency: zeroAddress,
      destinationCurrency: zeroAddress,
      amount: value.toString(),
      tradeType: options.failing ? "EXACT_OUTPUT" : "EXACT_INPUT",
      ...(options.failing
        ? { txs: [{ to: destination.callTarget as Address, value: "0", data: encodeFunctionData({ abi: callTargetAbi, functionName: "alwaysReverts" }) }] }
        : {}),
    });
    expect(quote.status).toBe(200);
    return { quote: quote.body, requestId: quote.body.requestId as string, send: () => sendSteps(quote.body, cluster.devnet.accounts[account], origin) };
  }

  const scenarios: Array<{ name: string; role: Role; at: "after deposit" | "after quote" | "submitted" | "failure"; failing?: boolean }> = [
    { name: "the worker, right after the deposit", role: "worker", at: "after deposit" },
    { name: "the worker, after the fill is sent", role: "worker", at: "submitted" },
    { name: "the indexer, right after the deposit", role: "indexer", at: "after deposit" },
    { name: "the gateway, between quote and deposit", role: "api", at: "after quote" },
    { name: "the worker, during the refund", role: "worker", at: "failure", failing: true },
  ];

  it.each(scenarios.map((scenario, index) => [scenario.name, scenario, index] as const))("recovers when %s is killed", async (_name, scenario, index) => {
    const { requestId, send } = await intent(index % 5, { failing: scenario.failing });
    if (scenario.at === "after quote") await cluster.crash(scenario.role);
    await send();
    if (scenario.at === "submitted" || scenario.at === "failure") await pollStatus(cluster.apiUrl, requestId, { until: [scenario.at, "success", "refund"] });
    const killedAt = Date.now();
    if (scenario.at !== "after quote") await cluster.crash(scenario.role);
    const { last } = await pollStatus(cluster.apiUrl, requestId, { until: ["success", "refund"], timeoutMs: 60_000, intervalMs: 100 });
    expect(last.status).toBe(scenario.failing ? "refund" : "success");
    if (scenario.at !== "after quote") expect(Date.now() - killedAt).toBeLessThan(RECOVERY_LIMIT_MS);
  });

  it("keeps every money invariant over all of it", async () => {
    // the notifier publishes on its own tick; give it a moment after the last change
    let problems: string[] = [];
    for (let tries = 0; tries < 20; tries += 1) {
      problems = await checkInvariants(cluster);
      if (problems.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(problems).toEqual([]);
  });
});
