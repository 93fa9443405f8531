import { everyRole } from "../../src/chains/everyRole.js";
import { z } from "zod";
import type { FamilyFactories } from "../../apps/families/familyFactories.js";
import { startPollerIndexer } from "../../apps/families/startPollerIndexer.js";
import {
  type TestChainConfig,
  createTestAdapter,
  testChainConfigSchema,
  testChainFamily,
  testPollerSource,
} from "./testChainFamily.js";
import type { TestLedger } from "./testChainFamily.js";
import { openTestLedger, testLedgerAt } from "./testNetwork.js";

/** The test family's devnet chain id, and what its devnet funds. */
export const TEST_DEVNET_CHAIN_ID = 41001;
export const TEST_DEVNET_FUNDING = 1_000_000_000_000n;

/** The test devnet: its one chain's ledger, and a funded user. */
export type TestDevnet = { ledger: TestLedger; chain: TestChainConfig; user: string };

const address = (digit: string) => `tst1${digit.repeat(40)}`;

const ledgerOf = (chain: TestChainConfig) => {
  if (!chain.ledger) throw new Error(`test chain ${chain.id} names no ledger`);
  return testLedgerAt(chain.ledger);
};

/**
 * The test-only family's factories, as a real family's (apps/families/): no keys (its solver signs by name), its
 * adapter over the ledger its entry names, a poller indexer role, a devnet of one funded in-memory chain.
 */
export const testFamilyFactories: FamilyFactories<
  TestChainConfig,
  Record<string, never>,
  Record<string, never>,
  TestDevnet
> = {
  vmType: "testvm",
  label: "test family",
  family: testChainFamily,
  keySchema: z.object({}).transform(() => ({})),
  roleKeys: () => ({}),
  adapter: (chain) => everyRole(createTestAdapter(chain, ledgerOf(chain))),
  indexer: {
    command: "testvm",
    description: "the pollers of the test family's chains",
    start: (context) => startPollerIndexer(context, "Test", testFamilyFactories.pollerChain!),
  },
  pollerChain: (chain) => ({
    chainId: chain.id,
    startHeight: chain.startBlock,
    pollEveryMs: 100,
    source: testPollerSource(ledgerOf(chain)),
  }),
  devnet: async () => {
    const network = openTestLedger();
    const entry = {
      id: TEST_DEVNET_CHAIN_ID,
      vmType: "testvm" as const,
      name: "test-devnet",
      depository: address("d"),
      solver: address("5"),
      ledger: network.name,
    };
    const chain = testChainConfigSchema.parse(entry);
    const user = address("a");
    network.ledger.balances.set(chain.solver, TEST_DEVNET_FUNDING);
    network.ledger.balances.set(user, TEST_DEVNET_FUNDING);
    return {
      chains: [chain],
      keys: {},
      manifest: { chains: [entry] },
      devnet: { ledger: network.ledger, chain, user },
      stop: async () => network.close(),
    };
  },
};
