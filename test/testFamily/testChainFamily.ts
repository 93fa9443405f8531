import { z } from "zod";
import type { ChainAdapter, VmType } from "../../src/chains/adapter.js";
import type { VmFamily } from "../../src/chains/vmFamily.js";
import type { ChainConfig } from "../../src/chains/chainConfig.js";
import type { ChainFamily } from "../../src/chains/chainFamily.js";
import { commonChainFields, nativeCurrencySchema } from "../../src/chains/commonChainFields.js";
import type { BlockSource, InBlock, SourceBlock } from "../../indexers/poller/blockWalk.js";
import type { DepositFact } from "../../schema/chainFacts.js";

/**
 * A fake chain family, for tests only: it proves a family is one folder and one registration (issue 23). Its chains
 * live in memory (a `TestLedger`): addresses are `tst1` and 40 hex digits, transaction hashes `tx` and 64.
 */
export const TEST_NATIVE_CURRENCY = "tst1native";

const codec: VmFamily<VmType> = {
  vmType: "testvm" as VmType,
  nativeCurrency: TEST_NATIVE_CURRENCY,
  address: {
    parse: (value) => (/^tst1[0-9a-f]{40}$/i.test(value) ? value.toLowerCase() : undefined),
    key: (address) => address,
  },
  parseTransactionHash: (value) => (/^tx[0-9a-f]{64}$/i.test(value) ? value.toLowerCase() : undefined),
};

export const testChainConfigSchema = z.object({
  ...commonChainFields,
  id: z.number().int().positive(),
  vmType: z.literal("testvm"),
  depository: z.string().refine((value) => codec.address.parse(value) !== undefined, "expected a tst1 address"),
  solver: z.string(),
  blockTimeSeconds: z.number().positive().default(1),
  nativeCurrency: nativeCurrencySchema.default({ symbol: "TST", name: "Test coin", decimals: 6 }),
});

export type TestChainConfig = z.infer<typeof testChainConfigSchema>;

export const testChainFamily = {
  vmType: "testvm",
  configSchema: testChainConfigSchema,
  codec,
  codecOf: () => codec,
  capabilities: () => ({
    sameChain: false,
    destinationRefusal: undefined,
    destinationCallsRefusal: "a test chain takes no calls",
    appFees: false,
    depositAddresses: false,
    refundUnmatchedAfterBlocks: undefined,
  }),
  publicFields: () => ({
    publicRpcUrl: undefined,
    publicWsUrl: undefined,
    receiver: TEST_NATIVE_CURRENCY,
    tokens: [],
  }),
} as const satisfies ChainFamily<TestChainConfig>;

/** The in-memory chain: balances, and blocks of deposits to the depository. */
export class TestLedger {
  readonly balances = new Map<string, bigint>();
  readonly blocks: { hash: string; deposits: InBlock<DepositFact>[] }[] = [{ hash: blockHash(0), deposits: [] }];

  /** Mines a block holding one deposit to the depository, returning its transaction hash. */
  deposit(depositor: string, amount: bigint, orderId: string): string {
    const txHash = `tx${(this.blocks.length * 7 + 1).toString(16).padStart(64, "0")}`;
    this.blocks.push({
      hash: blockHash(this.blocks.length),
      deposits: [
        {
          txHash,
          position: 0,
          orderId,
          depositor,
          currency: TEST_NATIVE_CURRENCY,
          amount,
          txFrom: depositor,
          txFee: 10n,
        },
      ],
    });
    return txHash;
  }
}

function blockHash(height: number) {
  return `block${height.toString(16).padStart(8, "0")}`;
}

/** The poller's view of a test chain: gapless heights, each block naming its parent. */
export function testPollerSource(ledger: TestLedger): BlockSource {
  const block = async (height: number): Promise<SourceBlock> => ({
    height,
    hash: ledger.blocks[height].hash,
    parentHash: height === 0 ? "" : ledger.blocks[height - 1].hash,
    timestamp: 1_000 + height,
    deposits: ledger.blocks[height].deposits,
    fills: [],
    withdrawals: [],
  });
  return {
    head: async () => ({ height: ledger.blocks.length - 1, hash: ledger.blocks[ledger.blocks.length - 1].hash }),
    blockHash: async (height) => ledger.blocks[height]?.hash,
    block,
  };
}

/** A test chain's adapter: quotes against the ledger's balances; a deposit is a plain transfer to the depository. */
export function createTestAdapter(chain: TestChainConfig, ledger: TestLedger): ChainAdapter {
  const unsupported = async (): Promise<never> => {
    throw new Error(`chain ${chain.id} is a quote-only test chain`);
  };
  return {
    ...codec,
    chain: chain as unknown as ChainConfig,
    solverAddress: chain.solver,
    recipientRefusal: (address) =>
      address === chain.depository ? { errorCode: "INVALID_RECIPIENT", message: "the depository" } : undefined,
    estimateFee: async () => 10n,
    balanceOf: async (owner) => ledger.balances.get(owner) ?? 0n,
    readDepositAccount: async (user) => ({ balance: ledger.balances.get(user) ?? 0n, allowance: 0n }),
    minimumDeposit: () => 1n,
    minimumPayout: () => 1n,
    depositSteps: async (input) => [
      {
        id: "deposit",
        action: "Confirm transaction in your wallet",
        description: `Send ${input.amount} to ${chain.depository}`,
        kind: "transaction",
        requestId: input.requestId,
        depositAddress: "",
        items: [
          { status: "incomplete", data: { to: chain.depository, value: input.amount.toString(), memo: input.orderId } },
        ],
      },
    ],
    signOrder: async (orderId) => `signed:${orderId}`,
    simulateFill: async () => ({ blockNumber: BigInt(ledger.blocks.length - 1), refusal: undefined }),
    readDepositFacts: async (txHash) =>
      ledger.blocks.flatMap((block, height) =>
        block.deposits
          .filter((deposit) => deposit.txHash === txHash)
          .map(
            (deposit) =>
              ({
                ...deposit,
                chainId: chain.id,
                blockNumber: BigInt(height),
                blockHash: block.hash,
                timestamp: BigInt(1_000 + height),
              }) as DepositFact,
          ),
      ),
    requiredConfirmations: () => 0,
    checkDeposit: async () => ({ state: "final" }),
    refundSpendsDeposit: false,
    prepareSolver: async () => [],
    prepareFill: unsupported,
    prepareRefund: unsupported,
    signTransaction: unsupported,
    broadcast: unsupported,
    followFill: unsupported,
  };
}

/** The test family as a composition registers it: its descriptor and its adapter factory over one ledger. */
export function testFamilyModule(ledger: TestLedger) {
  return {
    family: testChainFamily,
    adapterFactories: {
      testvm: (chain: ChainConfig) => createTestAdapter(chain as unknown as TestChainConfig, ledger),
    },
  };
}
