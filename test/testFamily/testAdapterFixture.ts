import { randomBytes } from "node:crypto";
import { FAMILIES } from "../../src/chains/families.js";
import { familyOfChain } from "../../src/chains/familyOfChain.js";
import type { AdapterFixture, FixtureChain } from "../adapterContract/adapterFixture.js";
import { everyRole } from "../../src/chains/everyRole.js";
import { TestLedger, createTestAdapter, testChainConfigSchema, testChainFamily } from "./testChainFamily.js";

const address = (digits: string) => `tst1${digits}`;

/** The test-only family in the adapter contract suite: its in-memory ledger is its devnet. */
export const testAdapterFixture: AdapterFixture = {
  name: "test family",
  sampleAddress: address("ab".repeat(20)),
  sampleTxHash: `tx${"ef".repeat(32)}`,
  async start(): Promise<FixtureChain> {
    const ledger = new TestLedger();
    const chain = testChainConfigSchema.parse({
      id: 41003,
      vmType: "testvm",
      name: "test-41003",
      depository: address("d".repeat(40)),
      solver: address("5".repeat(40)),
    });
    const depositor = address("a".repeat(40));
    ledger.balances.set(chain.solver, 1_000_000_000n);
    ledger.balances.set(depositor, 1_000_000_000n);
    const family = familyOfChain(chain, [...FAMILIES, testChainFamily]);
    const depth = (blockNumber: bigint) => ledger.blocks.length - Number(blockNumber);
    return {
      roles: everyRole(createTestAdapter(chain, ledger)),
      capabilities: family.capabilities(chain),
      addressSpellings: [depositor, depositor.toUpperCase().replace("TST1", "tst1")],
      refusedAddresses: [address("a".repeat(39)), `tst2${"a".repeat(40)}`],
      amount: 1_000_000n,
      newAddress: () => address(randomBytes(20).toString("hex")),
      async deposit(order, amount) {
        const txHash = ledger.deposit(depositor, amount, order.orderId, chain.depository);
        return { txHash, depositor, amount, factOrderId: order.orderId };
      },
      mine: async (blocks) => ledger.mine(blocks),
      reorgOut: async (deposit) => ledger.reorg(depth(deposit.blockNumber), [deposit.txHash]),
      async reorgMoving(deposit) {
        ledger.reorg(depth(deposit.blockNumber));
        ledger.mine(1);
      },
      balance: async (owner) => ledger.balance(owner),
      stop: async () => undefined,
    };
  },
};
