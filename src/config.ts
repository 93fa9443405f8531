import { z } from "zod";
import { BITCOIN_CHAIN_ID, PERPS_CHAIN_ID, SOLANA_CHAIN_ID, isReservedChainId } from "./domain/reservedChainIds.js";
import { APP_FEE_CLAIM_MAX_ATTEMPTS, APP_FEE_CLAIM_RETRY_BASE_MS } from "./domain/appFeeClaimRetryDelay.js";
import { DEFAULT_OVERPAYMENT_TOLERANCE_BPS } from "./domain/overpaymentRule.js";
import { DEFAULT_SPONSORED_APP_FEE_MAX_BPS } from "./domain/sponsorFees.js";
import { WEBHOOK_CONNECT_TIMEOUT_MS } from "./webhooks/postWebhook.js";
import { parseRateLimitOverrides } from "./rateLimitOverrides.js";
import { parseThrottleSchedule } from "./throttleSchedule.js";

const csvNumbers = z
  .string()
  .transform((value) => value.split(",").map((part) => Number(part.trim())))
  .pipe(
    z
      .array(
        z
          .number()
          .int()
          .positive()
          .refine(
            (id) => !isReservedChainId(id),
            `${PERPS_CHAIN_ID}, ${BITCOIN_CHAIN_ID} and ${SOLANA_CHAIN_ID} are the perps exchange's, Bitcoin's and Solana's ids`,
          ),
      )
      .min(1),
  );

/** "ETH=3000,USDC=1" → { ETH: "3000", USDC: "1" }, each value then checked by its own schema. */
const symbolList = z.string().transform((text): Record<string, string> =>
  Object.fromEntries(
    text
      .split(",")
      .filter(Boolean)
      .map((pair) => pair.split("=").map((part) => part.trim()) as [string, string]),
  ),
);

/** Prices stay decimal strings until the quote math. */
const priceList = symbolList.pipe(
  z.record(z.string().min(1), z.string().regex(/^\d+(\.\d+)?$/, "price must be a decimal number")),
);

/** A setting read by its own parser; the parser's error message becomes the setting's issue. */
const parsedText = <T>(parse: (text: string) => T) =>
  z.string().transform((text, ctx) => {
    try {
      return parse(text);
    } catch (error) {
      ctx.addIssue({ code: "custom", message: (error as Error).message });
      return z.NEVER;
    }
  });

/** Websocket connections one client address may hold open at once, unless configured. */
/** A share in basis points, 0 to 10,000. */
const basisPoints = z.coerce.bigint().refine((v) => v >= 0n && v <= 10_000n, "basis points, 0 to 10000");

export const DEFAULT_WEBSOCKET_CONNECTIONS_PER_ADDRESS = 500;

const envSchema = z.object({
  DATABASE_URL: z.string().url().optional(),
  REDIS_URL: z.string().url().optional(),
  CROSSFILL_CHAINS_FILE: z.string().optional(),
  // The chain families' keys (SOLVER_PRIVATE_KEY, BITCOIN_*) are their key schemas', read by parseFamilyKeys.
  HOST: z.string().default("127.0.0.1"),
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  // The worker's and a poller indexer's /healthz and /readyz (the gateway serves them on PORT). Unset: the worker on
  // 4001, a poller indexer on 4002; 0 picks a free port (logged).
  HEALTH_HOST: z.string().default("127.0.0.1"),
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  // The worker's order signer service for the gateways (with ORDER_SIGNER_TOKEN; docs/OPERATIONS.md, Keys each role
  // holds): loopback unless told otherwise; 0 picks a free port (logged).
  ORDER_SIGNER_HOST: z.string().default("127.0.0.1"),
  ORDER_SIGNER_PORT: z.coerce.number().int().min(0).max(65535).default(4003),
  PUBLIC_URL: z.string().url().optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  // Per chain and currency symbol, the solver balance under which an alert fires ("31339:ETH=1.5,31339:USDC=1000"),
  // exported by the worker as crossfill_solver_low_balance_threshold for the rule CrossfillSolverBalanceLow.
  SOLVER_LOW_BALANCES: symbolList
    .pipe(
      z.record(
        // zod reports a key that does not match as "Invalid key in record" at that key.
        z.string().regex(/^\d+:[A-Za-z0-9.]+$/),
        z.string().regex(/^\d+(\.\d+)?$/, "amount must be a decimal number"),
      ),
    )
    .optional(),
  // How long a role may take to stop after SIGINT/SIGTERM before it exits non-zero naming the step that hung.
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(30),
  CROSSFILL_DATA_DIR: z.string().default(".devnet"),
  // --- Prices (docs/OPERATIONS.md, "Prices"; src/rolePrices.ts) ---
  // The price sources in order of preference: "pyth" (Hermes over HTTP), "aggregator" (the chains file's on-chain
  // aggregators), or "static" (the PRICES table, alone: a devnet/test source, never behind a live one). Unset:
  // "static" when PRICES is set; `api` and `worker` refuse to start without either; `dev` quotes from the devnet's
  // own Hermes and aggregators.
  PRICE_SOURCES: z
    .string()
    .transform((value) => value.split(",").map((part) => part.trim()))
    .pipe(z.array(z.enum(["pyth", "aggregator", "static"])).min(1))
    .optional(),
  // The static table, USD by symbol: "ETH=3000,USDC=1".
  PRICES: priceList.optional(),
  // Pyth's Hermes (https://hermes.pyth.network, or a paid endpoint); each symbol's feed id is in the chains file.
  PYTH_HERMES_URL: z.string().url().optional(),
  // A Pyth price whose confidence interval is wider than this share of it (basis points) is no answer.
  PYTH_MAX_CONFIDENCE_BPS: basisPoints.default(200n),
  // The oldest price a quote may use (from its source's publish time); a chain's prices.<SYMBOL>.maxAgeSeconds over it.
  PRICE_MAX_AGE_SECONDS: z.coerce.number().int().min(1).default(60),
  // The first source against the next fresh one: further apart than this, a price is suspect and not quoted.
  PRICE_DEVIATION_BPS: basisPoints.default(100n),
  // A source's round trip is abandoned after this long; a source is read at most once per PRICE_REFRESH_MS.
  PRICE_TIMEOUT_MS: z.coerce.number().int().min(10).max(60_000).default(2_000),
  PRICE_REFRESH_MS: z.coerce.number().int().min(100).max(600_000).default(1_000),
  // The aggregators (one source per hosting chain) are read at most once per this instead: their rounds come seconds
  // (the devnet's 3 s) to hours (a mainnet heartbeat) apart, and each read is one eth_call per feed.
  PRICE_AGGREGATOR_REFRESH_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  SERVICE_FEE_BPS: basisPoints.default(5n),
  DEFAULT_SLIPPAGE_BPS: basisPoints.default(50n),
  QUOTE_TTL_SECONDS: z.coerce.number().int().positive().default(600),
  /**
   * How far over its quoted input an EXACT_INPUT deposit still fills at the quoted rate, in basis points of that
   * input. Past it the whole deposit is re-priced at current prices (or refunded); sponsored quotes have none.
   */
  OVERPAYMENT_TOLERANCE_BPS: basisPoints.default(DEFAULT_OVERPAYMENT_TOLERANCE_BPS),
  /** The most app fees (all recipients together, basis points) a quote may carry when its sponsor pays the `app` bucket. */
  SPONSORED_APP_FEE_MAX_BPS: basisPoints.default(DEFAULT_SPONSORED_APP_FEE_MAX_BPS),
  DEVNET_CHAIN_IDS: csvNumbers.default([31337, 31338, 31339, 999]),
  DEVNET_BLOCK_TIME: z.coerce.number().min(0).default(1),
  /** Seconds between the devnet Bitcoin's blocks (0: mined only on demand, POST /devnet/mine). */
  DEVNET_BITCOIN_BLOCK_TIME: z.coerce.number().min(0).default(5),
  /** Milliseconds between the devnet Solana's slots (0: slots only on demand). */
  DEVNET_SOLANA_SLOT_MS: z.coerce.number().int().min(0).default(400),
  DEVNET_BASE_PORT: z.coerce.number().int().min(1024).max(65000).default(8545),
  DEVNET_POSTGRES_PORT: z.coerce.number().int().min(1024).max(65535).default(54329),
  INDEXER_PORT: z.coerce.number().int().min(1).max(65535).default(42069),
  ONCHAIN_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/)
    .default("crossfill_onchain"),
  /** Keeps the queues of deployments sharing one Redis apart. */
  QUEUE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/)
    .default("crossfill"),
  FILL_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  // The EVM indexer role's head watcher (indexers/evm/startDepositWatcher): deposits recorded from each new head of a
  // chain with a wsUrl, before Ponder's row; "false" leaves every deposit to Ponder.
  EVM_DEPOSIT_WATCHER: z
    .enum(["true", "false"])
    .default("true")
    .transform((value) => value === "true"),
  // 32-byte hex server key sealing API keys' webhook secrets (AES-256-GCM); the devnet falls back to a fixed dev key.
  API_KEY_ENCRYPTION_KEY: z
    .string()
    .regex(/^(0x)?[0-9a-fA-F]{64}$/, "expected 32 bytes of hex")
    .transform((hex) => Buffer.from(hex.replace(/^0x/, ""), "hex"))
    .optional(),
  // "2026-09-01=75%,2026-10-01=50%": the share of each caller's normal GET /requests/v2 limit from each date on.
  V2_THROTTLE_SCHEDULE: parsedText(parseThrottleSchedule).optional(),
  // Webhooks to plain http and private addresses (local receivers): the devnet's default, never for production.
  WEBHOOK_ALLOW_PRIVATE: z
    .enum(["true", "false"])
    .transform((value) => value === "true")
    .optional(),
  // The first webhook retry's nominal delay; each next one is 2.2× longer (docs/API.md, Webhooks).
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(1).default(60_000),
  // An app fee claim the Depository cannot cover: the first retry's delay (doubling up to 30 min) and how many
  // refused payouts fail it, returning its amount to the balance (docs/API.md, App fees).
  APP_FEE_CLAIM_RETRY_BASE_MS: z.coerce.number().int().min(1).default(APP_FEE_CLAIM_RETRY_BASE_MS),
  APP_FEE_CLAIM_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(1000).default(APP_FEE_CLAIM_MAX_ATTEMPTS),
  // Behind a proxy that sets X-Forwarded-For, per-address rate limits count its first hop.
  TRUST_FORWARDED_FOR: z
    .enum(["true", "false"])
    .default("false")
    .transform((value) => value === "true"),
  // Websocket connections (the /ws feed and graphql-ws together) one client address may hold open at once.
  WEBSOCKET_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(1).default(DEFAULT_WEBSOCKET_CONNECTIONS_PER_ADDRESS),
  // Status lookups a gateway answers from memory between pushed updates: this long at most (the safety net for an
  // update the bus lost), for this many requests; 0 reads Postgres on every lookup.
  STATUS_CACHE_TTL_MS: z.coerce.number().int().min(0).default(5_000),
  STATUS_CACHE_MAX_ENTRIES: z.coerce.number().int().min(1).default(100_000),
  // Processes of `crossfill api` on one port (`--workers N` overrides); unset: one per core.
  API_WORKERS: z.coerce.number().int().min(1).max(256).optional(),
  // Young-generation semi-space of each of those processes, MB (V8's --max-semi-space-size): a quote allocates fast,
  // and 32 instead of V8's 16 halved the share of a worker's thread spent in garbage collection.
  API_WORKER_SEMI_SPACE_MB: z.coerce.number().int().min(1).max(1024).default(32),
  // --- Safety limits (issue 22 items 12, 13; docs/API.md Rate limits and Webhooks) ---
  // Per-route rate limits over the defaults, "quote=5/20/50,status=off": requests per window with no key / a key /
  // an elevated key, or off (not counted). Route names as in docs/API.md, Rate limits.
  RATE_LIMITS: parsedText(parseRateLimitOverrides).default({}),
  // Webhook attempts one worker process has in flight to one endpoint at once; more wait, without spending an attempt.
  WEBHOOK_CONCURRENCY_PER_ENDPOINT: z.coerce.number().int().min(1).max(64).default(4),
  // How long a webhook receiver may take to accept the TCP (and TLS) connection; the whole attempt stays 10 s.
  WEBHOOK_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(10_000).default(WEBHOOK_CONNECT_TIMEOUT_MS),
  // After this many failed attempts in a row an endpoint is skipped for WEBHOOK_BREAKER_COOLDOWN_MS; its deliveries
  // wait (no attempt spent), then one probe decides whether it is back.
  WEBHOOK_BREAKER_FAILURES: z.coerce.number().int().min(1).max(1000).default(5),
  WEBHOOK_BREAKER_COOLDOWN_MS: z.coerce.number().int().min(100).default(30_000),
});

export type Config = Readonly<z.infer<typeof envSchema>>;

const workersFlag = z.coerce.number().int().min(1).max(256);

/** How many api processes to run: `--workers N` in `args`, else API_WORKERS, else one per core. */
export function apiWorkers(args: readonly string[], config: Config, cores: number): number {
  const at = args.findIndex((arg) => arg === "--workers" || arg.startsWith("--workers="));
  if (at === -1) return config.API_WORKERS ?? cores;
  const raw = args[at].includes("=") ? args[at].slice("--workers=".length) : args[at + 1];
  const parsed = workersFlag.safeParse(raw);
  if (!parsed.success) throw new Error(`--workers takes a whole number from 1 to 256, got ${raw ?? "nothing"}`);
  return parsed.data;
}

/** Parses the environment once per process; every other module receives the typed result. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) throw new Error(`invalid configuration:\n${z.prettifyError(parsed.error)}`);
  return Object.freeze(parsed.data);
}

/**
 * Parses the chain families' keys from the environment, each family by its key schema (the composition root hands
 * them over: apps/families/factories.ts), into one record keyed by vmType.
 */
export function parseFamilyKeys<S extends Record<string, z.ZodType>>(
  env: Record<string, string | undefined>,
  schemas: S,
): { readonly [V in keyof S]: z.output<S[V]> } {
  const keys: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [vmType, schema] of Object.entries(schemas)) {
    const parsed = schema.safeParse(env);
    if (parsed.success) keys[vmType] = Object.freeze(parsed.data);
    else problems.push(z.prettifyError(parsed.error));
  }
  if (problems.length) throw new Error(`invalid configuration:\n${problems.join("\n")}`);
  return Object.freeze(keys) as { readonly [V in keyof S]: z.output<S[V]> };
}
