import { randomBytes } from "node:crypto";
import type pg from "pg";
import pino from "pino";
import { createFillLedger } from "../../schema/fillLedger.js";
import { type AppliedDeposit, listRequestDeposits, recordRequestDeposit } from "../../schema/requestDeposits.js";
import { type NewRequest, type StoredRequest, getRequest } from "../../schema/requests.js";
import { withTransaction } from "../../schema/withTransaction.js";
import type { ChainAdapter } from "../../src/chains/adapter.js";
import type { ChainConfig } from "../../src/chains/chainConfig.js";
import { createChainAdapters } from "../../src/chains/chainAdapters.js";
import { createChainRegistry } from "../../src/chains/chainRegistry.js";
import { everyRole } from "../../src/chains/everyRole.js";
import { FAMILIES } from "../../src/chains/families.js";
import { createStaticPriceSource } from "../../src/pricing/priceSource.js";
import { DEFAULT_STUCK_FILL_POLICY, type FillContext } from "../../jobs/fillDeps.js";
import {
  TEST_NATIVE_CURRENCY,
  type TestChainConfig,
  TestLedger,
  createTestAdapter,
  testChain,
  testChainConfigSchema,
  testChainFamily,
} from "../testFamily/testChainFamily.js";
import { insertTestRequest } from "./insertTestRequest.js";

let nextChainId = 41100;
const address = (digit: string) => `tst1${digit.repeat(40)}`;

/** What a fill phase's test works with: two test-family chains, each on its own in-memory ledger. */
export type TestFamilyFill = {
  context: FillContext;
  origin: TestChainConfig;
  destination: TestChainConfig;
  ledgers: { origin: TestLedger; destination: TestLedger };
  depositor: string;
  /** The refunds the phases queued, and the fills they queued again. */
  refunds: string[];
  requeued: Array<{ requestId: string; delayMs: number; key: string }>;
  /** The same context with members of a chain's adapter replaced (an outcome the test chain never produces). */
  patched(chainId: number, patch: Partial<ChainAdapter>): FillContext;
  /** A request between the chains whose deposit was made on the origin ledger and applied as reconcile applies it. */
  pendingRequest(overrides?: Partial<NewRequest>): Promise<{ request: StoredRequest; deposit: AppliedDeposit }>;
};

/**
 * The fill phases' context over the test-only family (test/testFamily/): its real adapter over in-memory ledgers
 * (deposits, confirmations, reorgs, nonces, broadcast, mining), the fill ledger and requests in `pool`'s Postgres.
 */
export function testFamilyFill(pool: pg.Pool): TestFamilyFill {
  // Chains of their own each time: the solver's nonces in Postgres start over with the new ledgers.
  const origin = testChain(nextChainId++);
  const destination = testChain(nextChainId++);
  const chains = [origin, destination];
  const ledgers = { origin: new TestLedger(), destination: new TestLedger() };
  const ledgerOf = (chainId: number) => (chainId === origin.id ? ledgers.origin : ledgers.destination);
  const depositor = address("a");
  ledgers.origin.balances.set(depositor, 1_000_000_000n);
  ledgers.destination.balances.set(destination.solver, 1_000_000_000n);
  const refunds: string[] = [];
  const requeued: TestFamilyFill["requeued"] = [];
  const adaptersWith = (patches: ReadonlyMap<number, Partial<ChainAdapter>>) =>
    createChainAdapters(chains, {
      testvm: (chain: ChainConfig) => {
        const adapter = createTestAdapter(testChainConfigSchema.parse(chain), ledgerOf(chain.id));
        return everyRole({ ...adapter, ...patches.get(chain.id) });
      },
    });
  const context: FillContext = {
    pool,
    adapters: adaptersWith(new Map()),
    registry: createChainRegistry(chains, [...FAMILIES, testChainFamily]),
    enqueueRefund: async (id) => void refunds.push(id),
    enqueueFill: async (requestId, options) => void requeued.push({ requestId, ...options }),
    prices: createStaticPriceSource({ TST: "1" }),
    debugReferrers: false,
    logger: pino({ level: "silent" }),
    ledger: createFillLedger(pool),
    policy: DEFAULT_STUCK_FILL_POLICY,
  };

  return {
    context,
    origin,
    destination,
    ledgers,
    depositor,
    refunds,
    requeued,
    patched: (chainId, patch) => ({ ...context, adapters: adaptersWith(new Map([[chainId, patch]])) }),
    async pendingRequest(overrides = {}) {
      const amount = overrides.amountIn ?? 1_000n;
      const stored = await insertTestRequest(pool, {
        user: depositor,
        refundTo: depositor,
        recipient: `tst1${randomBytes(20).toString("hex")}`,
        originChainId: origin.id,
        destinationChainId: destination.id,
        originCurrency: TEST_NATIVE_CURRENCY,
        destinationCurrency: TEST_NATIVE_CURRENCY,
        amountIn: amount,
        amountOut: amount - 10n,
        minimumAmountOut: amount - 10n,
        ...overrides,
      });
      const txHash = ledgers.origin.deposit(depositor, amount, stored.orderId, origin.depository);
      const [fact] = await context.adapters.deposits(origin.id).readDepositFacts(txHash);
      await withTransaction(pool, (db) => recordRequestDeposit(db, { ...fact, requestId: stored.id }));
      await pool.query("UPDATE crossfill.requests SET status = 'pending', fill_amount = amount_out WHERE id = $1", [
        stored.id,
      ]);
      const [deposit] = await listRequestDeposits(pool, stored.id);
      return { request: (await getRequest(pool, stored.id))!, deposit };
    },
  };
}
