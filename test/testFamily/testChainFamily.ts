import { createHash } from "node:crypto";
import { z } from "zod";
import type { ChainAdapter, VmType } from "../../src/chains/adapter.js";
import type { VmFamily } from "../../src/chains/vmFamily.js";
import type { ChainConfig } from "../../src/chains/chainConfig.js";
import type { AdapterFactories } from "../../src/chains/chainAdapters.js";
import type { ChainFamily } from "../../src/chains/chainFamily.js";
import { everyRole } from "../../src/chains/everyRole.js";
import { commonChainFields, nativeCurrencySchema } from "../../src/chains/commonChainFields.js";
import type { BlockSource, InBlock, SourceBlock } from "../../indexers/poller/blockWalk.js";
import type { DepositFact } from "../../schema/chainFacts.js";
import { NotFoundError } from "../../src/domain/errors.js";
import { computeOrderId } from "../../src/domain/order.js";

/**
 * A fake chain family, for tests only: it proves a family is one folder and one registration (issue 23). Its chains
 * live in memory (a `TestLedger`): addresses are `tst1` and 40 hex digits, transaction hashes `tx` and 64.
 */
export const TEST_NATIVE_CURRENCY = "tst1native";

const codec: VmFamily<VmType> = {
  vmType: "testvm",
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
  /** The ledger of the in-process test network the chain lives on (testNetwork.ts), for its factories' adapter and poller. */
  ledger: z.string().optional(),
  blockTimeSeconds: z.number().positive().default(1),
  nativeCurrency: nativeCurrencySchema.default({ symbol: "TST", name: "Test coin", decimals: 6 }),
});

export type TestChainConfig = z.infer<typeof testChainConfigSchema>;

/** A test chain named after its id, with the depository (`tst1dd…`) and solver (`tst155…`) tests use. */
export function testChain(id: number): TestChainConfig {
  return testChainConfigSchema.parse({
    id,
    vmType: "testvm",
    name: `test-${id}`,
    depository: `tst1${"d".repeat(40)}`,
    solver: `tst1${"5".repeat(40)}`,
  });
}

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

/** A transfer on a test chain: `signer` signs it (its nonce) and pays its fee, `payer` pays `amount` to `to`. */
export type TestTransaction = {
  txHash: string;
  signer: string;
  nonce: number;
  payer: string;
  to: string;
  amount: bigint;
  /** The order a deposit to the depository pays; none for the solver's fills and refunds. */
  orderId?: string;
};

/** What every transaction on a test chain pays. */
export const TEST_FEE = 10n;

type TestBlock = { hash: string; deposits: InBlock<DepositFact>[]; transactions: TestTransaction[] };

/**
 * The in-memory chain: funded balances, blocks of transfers (deposits to the depository among them), a mempool and
 * reorgs. What an address holds is its funding plus what the blocks of the best chain moved.
 */
export class TestLedger {
  /** What each address was funded with; the blocks' transfers move it. */
  readonly balances = new Map<string, bigint>();
  readonly blocks: TestBlock[] = [{ hash: blockHash(0, 0), deposits: [], transactions: [] }];
  readonly mempool = new Map<string, TestTransaction>();
  private reorgs = 0;

  /** Mines a block holding one deposit to the depository, returning its transaction hash. */
  deposit(depositor: string, amount: bigint, orderId: string, depository = ""): string {
    const nonce = this.nextNonce(depositor);
    const txHash = transactionHash(`deposit:${depositor}:${nonce}:${amount}:${orderId}:${this.blocks.length}`);
    this.send({ txHash, signer: depositor, nonce, payer: depositor, to: depository, amount, orderId });
    this.mine(1);
    return txHash;
  }

  /** What an address holds in the best chain. */
  balance(address: string): bigint {
    let balance = this.balances.get(address) ?? 0n;
    for (const tx of this.blocks.flatMap((block) => block.transactions)) {
      if (tx.signer === address) balance -= TEST_FEE;
      if (tx.payer === address) balance -= tx.amount;
      if (tx.to === address) balance += tx.amount;
    }
    return balance;
  }

  /** The nonce an address signs with next: one past its transactions in the chain and the mempool. */
  nextNonce(signer: string): number {
    const sent = [...this.blocks.flatMap((block) => block.transactions), ...this.mempool.values()];
    return sent.filter((tx) => tx.signer === signer).length;
  }

  /** Where a transaction is: its block's height, the mempool (-1), or undefined when the chain does not know it. */
  find(txHash: string): { height: number; tx: TestTransaction } | undefined {
    const pooled = this.mempool.get(txHash);
    if (pooled) return { height: -1, tx: pooled };
    for (const [height, block] of this.blocks.entries()) {
      const tx = block.transactions.find((candidate) => candidate.txHash === txHash);
      if (tx) return { height, tx };
    }
    return undefined;
  }

  /** Takes a transaction into the mempool; one known already is left as it is, one reusing a nonce is refused. */
  send(tx: TestTransaction): void {
    if (this.find(tx.txHash)) return;
    if (tx.nonce !== this.nextNonce(tx.signer))
      throw new Error(`nonce ${tx.nonce} of ${tx.signer} is not its next (${this.nextNonce(tx.signer)})`);
    this.mempool.set(tx.txHash, tx);
  }

  /** Mines `count` blocks, the first with the whole mempool. */
  mine(count: number): void {
    for (let i = 0; i < count; i++) {
      const transactions = [...this.mempool.values()];
      this.mempool.clear();
      const height = this.blocks.length;
      this.blocks.push({
        hash: blockHash(height, this.reorgs),
        transactions,
        deposits: transactions.flatMap((tx, position) =>
          tx.orderId === undefined
            ? []
            : [
                {
                  txHash: tx.txHash,
                  position,
                  orderId: tx.orderId,
                  depositor: tx.payer,
                  currency: TEST_NATIVE_CURRENCY,
                  amount: tx.amount,
                  txFrom: tx.signer,
                  txFee: TEST_FEE,
                },
              ],
        ),
      });
    }
  }

  /**
   * Replaces the last `depth` blocks with `depth + 1` empty ones; their transactions go back to the mempool, except
   * those of `drop`.
   */
  reorg(depth: number, drop: readonly string[] = []): void {
    this.reorgs++;
    const pooled = [...this.mempool.values()];
    this.mempool.clear();
    const disconnected = this.blocks.splice(this.blocks.length - depth, depth);
    this.mine(depth + 1);
    for (const tx of [...disconnected.flatMap((block) => block.transactions), ...pooled])
      if (!drop.includes(tx.txHash)) this.mempool.set(tx.txHash, tx);
  }
}
/** A block's hash: its height, and how many reorgs came before it (a block mined after a reorg is another block). */
function blockHash(height: number, reorgs: number) {
  return `block${height.toString(16).padStart(8, "0")}${reorgs === 0 ? "" : `r${reorgs}`}`;
}

function transactionHash(contents: string) {
  return `tx${createHash("sha256").update(contents).digest("hex")}`;
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

/** What a test chain's `prepareFill` and `prepareRefund` hand `signTransaction`: a transfer, before its nonce. */
type TestPayload = Omit<TestTransaction, "txHash" | "nonce">;

/**
 * A test chain's adapter over its ledger: a deposit is a transfer to the depository naming its order; the solver
 * pays fills from its own balance and signs refunds the depository pays, each a transfer with the solver's nonce,
 * taken from the fill ledger (so it is stored before it is broadcast, like any family's).
 */
export function createTestAdapter(chain: TestChainConfig, ledger: TestLedger): ChainAdapter {
  const factsOf = (txHash: string): DepositFact[] =>
    ledger.blocks.flatMap((block, height) =>
      block.deposits
        .filter((deposit) => deposit.txHash === txHash)
        .map((deposit) => ({
          ...deposit,
          chainId: chain.id,
          blockNumber: BigInt(height),
          blockHash: block.hash,
          timestamp: BigInt(1_000 + height),
        })),
    );
  const prepared = (payload: TestPayload) => ({ transaction: { chainId: chain.id, payload } });
  const head = () => ledger.blocks.length - 1;
  return {
    ...codec,
    chain,
    solverAddress: chain.solver,
    recipientRefusal: (address) =>
      address === chain.depository ? { errorCode: "INVALID_RECIPIENT", message: "the depository" } : undefined,
    estimateFee: async () => TEST_FEE,
    balanceOf: async (owner) => ledger.balance(owner),
    headHeight: async () => BigInt(head()),
    readDepositAccount: async (user) => ({ balance: ledger.balance(user), allowance: 0n }),
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
    signOrder: async (order) => `signed:${computeOrderId(order)}`,
    simulateFill: async () => ({ blockNumber: BigInt(head()), refusal: undefined }),
    readDepositFacts: async (txHash) => {
      const facts = factsOf(txHash);
      if (!ledger.find(txHash) || ledger.find(txHash)!.height < 0)
        throw new NotFoundError(
          "TRANSACTION_NOT_FOUND",
          `transaction ${txHash} is not in a block of chain ${chain.id}`,
        );
      return facts;
    },
    requiredConfirmations: () => 0,
    checkDeposit: async (deposit, required) => {
      const [there] = factsOf(deposit.txHash);
      if (!there)
        return {
          state: "reorged",
          reorg: { source: "fill-check", reason: "deposit not in the chain", blockHash: deposit.blockHash },
        };
      const { position, blockNumber, blockHash, timestamp } = there;
      if (blockHash !== deposit.blockHash)
        return { state: "moved", to: { position, blockNumber, blockHash, timestamp } };
      const confirmations = head() - Number(blockNumber) + 1;
      return confirmations >= required
        ? { state: "final" }
        : { state: "confirming", missingBlocks: required - confirmations };
    },
    refundSpendsDeposit: false,
    prepareSolver: async () => [],
    prepareFill: async (order) =>
      prepared({ signer: chain.solver, payer: chain.solver, to: order.recipient, amount: order.amount }),
    prepareRefund: async (refund) =>
      ledger.balance(chain.depository) < refund.amount
        ? { refusal: `the depository holds less than ${refund.amount}` }
        : prepared({ signer: chain.solver, payer: chain.depository, to: refund.recipient, amount: refund.amount }),
    async signTransaction(fillLedger, transaction) {
      const payload = transaction.payload as TestPayload;
      const nonce = await fillLedger.lockNextNonce(chain.id, payload.signer, ledger.nextNonce(payload.signer));
      await fillLedger.saveNextNonce(chain.id, payload.signer, nonce + 1);
      const tx = { ...payload, nonce, amount: payload.amount.toString() };
      const rawTx = JSON.stringify(tx);
      return { nonce, rawTx, txHash: transactionHash(rawTx) };
    },
    broadcast: async (signed) => {
      const tx = JSON.parse(signed.rawTx) as Omit<TestTransaction, "txHash" | "amount"> & { amount: string };
      ledger.send({ ...tx, txHash: signed.txHash, amount: BigInt(tx.amount) });
    },
    async followFill(attempt) {
      const found = ledger.find(attempt.txHash);
      if (found && found.height >= 0)
        return { state: "mined", txHash: attempt.txHash, blockNumber: BigInt(found.height), fee: TEST_FEE };
      if (!found) await this.broadcast(attempt);
      return { state: "in-flight", txHash: attempt.txHash, action: "re-sent" };
    },
  };
}

/** The test family as a composition registers it: its descriptor and its adapter factory over one ledger. */
export function testFamilyModule(ledger: TestLedger) {
  return {
    family: testChainFamily,
    adapterFactories: {
      // Its own entry, read as its family reads it.
      testvm: (chain: ChainConfig) => everyRole(createTestAdapter(testChainConfigSchema.parse(chain), ledger)),
    } satisfies AdapterFactories,
  };
}
