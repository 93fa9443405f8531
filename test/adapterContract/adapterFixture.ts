import type { ChainRoles } from "../../src/chains/adapter.js";
import type { ChainCapabilities } from "../../src/chains/chainFamily.js";

/**
 * What a chain family brings to the adapter contract suite (`test/adapterContract.test.ts`): its devnet, started
 * once per test file, and the few chain actions the suite cannot ask of the adapter itself — a user's deposit,
 * mining, reorgs, and balances read from the chain rather than through the adapter under test.
 */
export type AdapterFixture = {
  /** The family's name in the suite's titles. */
  readonly name: string;
  /** An address of the family, in canonical form (another family's chains must refuse it). */
  readonly sampleAddress: string;
  /** A transaction hash of the family, in canonical form (another family's chains must refuse it). */
  readonly sampleTxHash: string;
  /**
   * Fixtures (by name) of families whose addresses and hashes have this family's form too (the perps exchange's
   * accounts are EVM addresses): the suite does not ask either to refuse the other's.
   */
  readonly sharesEncodingsWith?: readonly string[];
  start(): Promise<FixtureChain>;
};

/** A deposit as the fixture made it, and what its fact must show. */
export type FixtureDeposit = {
  txHash: string;
  depositor: string;
  amount: bigint;
  /** The id the deposit names, as its fact records it (Bitcoin's memo names the request, EVM's call the order). */
  factOrderId: string;
};

/** One running chain of the family, with the roles its adapter offers. */
export type FixtureChain = {
  /**
   * Made by the family's adapter factory (as the composition root makes it), with the keys of its solver, depository
   * and refunds: the suite runs a role's tests only where the family offers that role.
   */
  readonly roles: ChainRoles;
  /** What the chain can do, as its family says (`ChainFamily.capabilities`): the suite skips what it cannot. */
  readonly capabilities: ChainCapabilities;
  /** Spellings of one address the chain accepts, the canonical first. */
  readonly addressSpellings: readonly string[];
  /** Strings the chain must refuse as addresses though they look like its family's (another network's, bad checksums). */
  readonly refusedAddresses: readonly string[];
  /** An amount of the native currency the deposits, fills and refunds of the suite move (well above dust). */
  readonly amount: bigint;
  /** An address nothing has paid yet. */
  newAddress(): string;
  /**
   * A user's deposit of `amount` native currency into the depository for the order (and its request), mined in a
   * block of its own that is the chain's head.
   */
  deposit(order: { orderId: string; requestId: string }, amount: bigint): Promise<FixtureDeposit>;
  /** Mines `blocks` blocks, with whatever was broadcast. */
  mine(blocks: number): Promise<void>;
  /** Whether the chain names a transaction only once it commits it, so its stored id is not its hash (the exchange). */
  readonly namesTransactionsOnCommit?: boolean;
  /** What of the contract the family does not keep (yet), and why: the suite skips those tests and names the reason. */
  readonly unsupported?: { reorgs?: string; refunds?: string };
  /** A reorg from the deposit's block on that leaves its transaction out of the chain for good. */
  reorgOut?(deposit: { txHash: string; blockNumber: bigint }): Promise<void>;
  /** A reorg from the deposit's block on that mines its transaction again, in another block. */
  reorgMoving?(deposit: { txHash: string; blockNumber: bigint }): Promise<void>;
  /** What an address holds, read from the chain (not through the adapter), in the smallest unit. */
  balance(address: string): Promise<bigint>;
  stop(): Promise<void>;
};
