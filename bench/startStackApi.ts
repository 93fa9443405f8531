import pino from "pino";
import { familyAdapters } from "../apps/families/familyAdapters.js";
import type { StatusBus } from "../src/events/createStatusBus.js";
import { type ApiDeps, type RunningApi, startApi } from "../src/gateway/startApi.js";
import { createStaticPriceSource } from "../src/pricing/priceSource.js";
import { TEST_PRICES, type TestStack } from "../test/support/startTestStack.js";
import { testRouteLimits } from "../test/support/testRateLimits.js";

/**
 * Another gateway on a test stack's database and chains, as the API role builds it (startApi), with the stack's
 * prices and fees and its route limits unless `extra` says otherwise: for benchmarks comparing gateways side by side.
 */
export function startStackApi(
  stack: TestStack,
  statusBus: StatusBus,
  extra: Partial<Pick<ApiDeps, "rest" | "routeLimits" | "prices">> = {},
): Promise<RunningApi> {
  return startApi({
    pool: stack.pool,
    chains: stack.devnet.chains,
    adapters: familyAdapters(stack.devnet.chains, { evm: { solver: stack.devnet.solver } }, { pool: stack.pool }),
    logger: pino({ level: "warn" }),
    host: "127.0.0.1",
    port: 0,
    statusBus,
    routeLimits: testRouteLimits(),
    prices: extra.prices ?? createStaticPriceSource(TEST_PRICES),
    settings: { serviceFeeBps: 5n, defaultSlippageBps: 50n, quoteTtlSeconds: 600 },
    ...extra,
  });
}
