import { randomBytes } from "node:crypto";
import pino from "pino";
import { familyAdapters } from "../apps/families/familyAdapters.js";
import { type StatusBus, createStatusBus } from "../src/events/createStatusBus.js";
import type { RateLimiter } from "../src/gateway/http/rateLimiter.js";
import type { RouteLimits } from "../src/gateway/http/routeLimits.js";
import { type ApiDeps, type RunningApi, startApi } from "../src/gateway/startApi.js";
import { createStaticPriceSource } from "../src/pricing/priceSource.js";
import { TEST_PRICES, type TestStack } from "../test/support/startTestStack.js";
import { testRouteLimits } from "../test/support/testRateLimits.js";

/**
 * The REST settings of a benchmark's gateway on `stack`: its own cursor secret, the stack's server key, the given
 * rate limiter and route limits.
 */
export function stackRest(
  stack: TestStack,
  rateLimiter: RateLimiter,
  routeLimits: RouteLimits,
  trustForwardedFor: boolean,
): NonNullable<ApiDeps["rest"]> {
  return {
    cursorSecret: randomBytes(32),
    serverKey: stack.serverKey,
    rateLimiter,
    routeLimits,
    trustForwardedFor,
    websocketConnectionsPerAddress: 500,
  };
}

/**
 * Another gateway on a test stack's database and chains, as the API role builds it (startApi), with the stack's
 * prices and fees and its route limits unless `extra` says otherwise: for benchmarks comparing gateways side by side.
 */
export function startStackApi(
  stack: TestStack,
  statusBus: StatusBus,
  extra: Partial<Pick<ApiDeps, "rest" | "routeLimits" | "prices" | "metrics">> = {},
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

/**
 * One gateway per mode on the stack (`extraOf(mode)` sets it apart), sharing one in-process status bus: for rounds that
 * alternate between them. `stop` closes them, then `release` (what the modes share), then the bus.
 */
export async function startModeGateways<M extends string>(
  stack: TestStack,
  modes: readonly M[],
  extraOf: (mode: M) => Parameters<typeof startStackApi>[2],
  release: () => Promise<void>,
): Promise<{ urls: Record<M, string>; stop(): Promise<void> }> {
  const bus = createStatusBus();
  const apis: RunningApi[] = [];
  const urls = {} as Record<M, string>;
  for (const mode of modes) {
    const api = await startStackApi(stack, bus, extraOf(mode));
    apis.push(api);
    urls[mode] = api.url;
  }
  return {
    urls,
    async stop() {
      for (const api of apis) await api.close();
      await release();
      await bus.close();
    },
  };
}
