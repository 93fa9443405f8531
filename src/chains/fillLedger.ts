/**
 * The fill ledger: what chain adapters write about the transactions they sign, through `schema/` (which implements
 * it, `schema/fillLedger.ts`) — so no family re-implements store-before-broadcast, the per-wallet lock or the nonce.
 * Adapters receive it as an argument; the jobs that sign hand them the ledger of their own database transaction.
 */

/** A signed fill as it is stored before it is broadcast. */
export type FillAttempt = {
  requestId: string;
  chainId: number;
  solver: string;
  /** The account nonce it spends (EVM); null where the chain has none (Bitcoin spends outputs). */
  nonce: number | null;
  txHash: string;
  rawTx: string;
  currency: string;
  amount: bigint;
  recipient: string;
};

/** A stored fill with what was done to get it mined. */
export type StoredFillAttempt = FillAttempt & {
  sentAt: Date;
  bumps: number;
  previousTxHashes: string[];
  cancelTxHash: string | null;
  cancelRawTx: string | null;
  /** Times the node refused the fill outright. */
  broadcastFailures: number;
};

/** A signed transaction to store: its bytes and its hash. */
export type SignedBytes = { txHash: string; rawTx: string };

/**
 * The ledger inside one database transaction of the caller: its locks are held, and what it stores is committed,
 * when that transaction ends — so a transaction signed under a lock is stored before the lock is released.
 */
export interface FillLedgerTransaction {
  /**
   * Locks the solver's nonce on a chain for the rest of the transaction and returns the next one: the larger of what
   * was last used and what the chain reports pending (transactions sent outside Crossfill are respected).
   */
  lockNextNonce(chainId: number, solver: string, chainPending: number): Promise<number>;
  /** Records the nonce after the one just signed with, under the lock `lockNextNonce` took. */
  saveNextNonce(chainId: number, solver: string, nextNonce: number): Promise<void>;
  /**
   * Locks a chain's solver wallet (a UTXO chain) for the rest of the transaction and returns the raw transactions of
   * the stored fills that may still spend its outputs.
   */
  lockSolverWallet(chainId: number): Promise<string[]>;
  /** Stores the signed fill before it is broadcast; false when the request has one already (re-send that one). */
  storeFill(attempt: FillAttempt): Promise<boolean>;
}

/** The ledger outside any transaction of the caller: each record is its own write, made before the broadcast. */
export interface FillLedger {
  /** Runs `work` in one database transaction, with the ledger of that transaction. */
  transaction<T>(work: (ledger: FillLedgerTransaction) => Promise<T>): Promise<T>;
  /** Stores a re-priced fill on the same nonce or inputs; false when the stored fill is no longer `replaced`. */
  recordReplacement(requestId: string, replaced: string, next: SignedBytes): Promise<boolean>;
  /**
   * Stores the cancellation that spends the fill's nonce, or its re-priced version when `replacing` names the
   * cancellation it supersedes; false when another run stored one first.
   */
  recordCancel(requestId: string, cancel: SignedBytes, replacing: string | null): Promise<boolean>;
  /** Stores a payout's cancellation (a UTXO chain) only while its request's fill is unresolved and has none yet. */
  recordPayoutCancel(requestId: string, cancel: SignedBytes): Promise<boolean>;
  /** Counts a refusal of the fill by the node; returns how many there have been. */
  recordBroadcastFailure(requestId: string, error: string): Promise<number>;
}
