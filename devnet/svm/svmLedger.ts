import { address, getTransactionDecoder, lamports as toLamports } from "@solana/kit";
import { AddressLookupTableAccount, PublicKey, VersionedTransaction, type VersionedMessage } from "@solana/web3.js";
import bs58 from "bs58";
import { Clock, FailedTransactionMetadata, LiteSVM, type TransactionMetadata } from "litesvm";
import { agaveMemo } from "./agaveMemo.js";
import { decodeMint, decodeTokenAccount } from "./tokenAccountState.js";
import { transactionFee } from "./transactionFee.js";
import { fieldlessTransactionError, type TransactionErrorInfo, transactionErrorJson } from "./transactionErrorJson.js";
import { verifyTransactionSignatures } from "./verifyTransactionSignatures.js";

export type Commitment = "processed" | "confirmed" | "finalized";
/** How many blocks a blockhash stays usable (Solana's MAX_PROCESSING_AGE). */
export const maxBlockhashAge = 150;

/** An account as the RPC reports it; null when it does not exist. */
export type AccountState = { lamports: bigint; owner: string; data: Uint8Array; executable: boolean } | null;

export type TokenBalance = {
  accountIndex: number;
  mint: string;
  owner: string;
  programId: string;
  amount: bigint;
  decimals: number;
};

export type InnerInstructionRecord = {
  programIdIndex: number;
  accounts: number[];
  data: Uint8Array;
  stackHeight: number;
};

/** A transaction that landed in a slot (successful, or failed with its fee charged), with its RPC meta. */
export type LandedTransaction = {
  signature: string;
  slot: number;
  blockTime: number;
  transaction: VersionedTransaction;
  /** Static keys, then the writable and the read-only addresses loaded from lookup tables. */
  accountKeys: PublicKey[];
  loadedAddresses: { writable: string[]; readonly: string[] };
  err: TransactionErrorInfo | null;
  fee: bigint;
  logs: string[];
  innerInstructions: { index: number; instructions: InnerInstructionRecord[] }[];
  computeUnitsConsumed: bigint;
  returnData: { programId: string; data: Uint8Array } | null;
  preBalances: bigint[];
  postBalances: bigint[];
  preTokenBalances: TokenBalance[];
  postTokenBalances: TokenBalance[];
  memo: string | null;
};

/** Why a transaction sent with preflight did not land, as the RPC reports it. */
export type PreflightFailure = { err: TransactionErrorInfo; logs: string[]; unitsConsumed: bigint };

export type SubmitOutcome =
  | { kind: "landed"; signature: string; transaction: LandedTransaction }
  /** Accepted by the RPC (skipPreflight) but never included, as a validator drops it. */
  | { kind: "dropped"; signature: string }
  | { kind: "signatureFailure"; signature: string }
  | { kind: "preflightFailure"; signature: string; failure: PreflightFailure };

export type SimulateOutcome = {
  err: TransactionErrorInfo | null;
  logs: string[];
  unitsConsumed: bigint;
  accounts: Map<string, AccountState> | null;
  returnData: { programId: string; data: Uint8Array } | null;
  innerInstructions: { index: number; instructions: InnerInstructionRecord[] }[];
};

export type SvmLedgerOptions = {
  /** Slots after landing before a transaction is `confirmed` (default 1). */
  confirmedAfterSlots?: number;
  /** Slots after landing before a transaction is `finalized` (default 32, as a cluster's root trails its tip). */
  finalizedAfterSlots?: number;
  /** Wall clock in milliseconds, for block times. */
  now?: () => number;
};

export type SvmLedger = ReturnType<typeof createSvmLedger>;

/**
 * A Solana cluster in one process: litesvm executes the transactions; this keeps what a validator and its RPC
 * add around it — slots and blocks (one block per slot), a ring of blockhashes that expire after 150 blocks,
 * the three commitments (a transaction lands `processed`, turns `confirmed` and `finalized` some slots later, and
 * reads at a commitment see the accounts as of that commitment's slot), the transaction store with RPC meta, and
 * the per-address signature index.
 */
export function createSvmLedger(options: SvmLedgerOptions = {}) {
  const { confirmedAfterSlots = 1, finalizedAfterSlots = 32, now = Date.now } = options;
  if (!(confirmedAfterSlots >= 0 && finalizedAfterSlots >= confirmedAfterSlots))
    throw new Error("finalizedAfterSlots must be at least confirmedAfterSlots, both non-negative");
  // litesvm's own blockhash check knows only the latest blockhash: the ring below is the cluster's.
  const svm = new LiteSVM().withBlockhashCheck(false);
  const decoder = getTransactionDecoder();
  let slot = 0;
  const blockhashHeight = new Map<string, number>();
  const blockhashOfSlot = new Map<number, string>();
  const blockTimes = new Map<number, number>();
  const transactions = new Map<string, LandedTransaction>();
  const bySlot = new Map<number, LandedTransaction[]>();
  const byAddress = new Map<string, LandedTransaction[]>();
  // Accounts as they were before each not-yet-finalized transaction touched them, oldest first.
  const earlierStates = new Map<string, { slot: number; state: AccountState }[]>();
  const slotListeners = new Set<(slot: number) => void>();
  // Fee payers whose transactions the cluster accepts and never includes (tests: a congested leader dropping them).
  const droppedPayers = new Set<string>();
  const transactionListeners = new Set<(tx: LandedTransaction) => void>();

  function openSlot() {
    const unixTimestamp = BigInt(Math.floor(now() / 1000));
    blockTimes.set(slot, Number(unixTimestamp));
    svm.setClock(new Clock(BigInt(slot), 0n, 0n, 1n, unixTimestamp));
    if (slot > 0) svm.expireBlockhash();
    const blockhash = svm.latestBlockhash();
    blockhashHeight.set(blockhash, slot);
    blockhashOfSlot.set(slot, blockhash);
  }
  openSlot();

  /** Block height equals the slot: the devnet skips no slot. */
  const commitmentSlot = (commitment: Commitment = "finalized") =>
    Math.max(
      0,
      slot - (commitment === "processed" ? 0 : commitment === "confirmed" ? confirmedAfterSlots : finalizedAfterSlots),
    );

  function readAccount(key: string): AccountState {
    const account = svm.getAccount(address(key));
    if (!account.exists) return null;
    // A system account drained to zero is gone, as on a cluster.
    if (account.lamports === 0n) return null;
    return {
      lamports: account.lamports,
      owner: account.programAddress,
      data: Uint8Array.from(account.data),
      executable: account.executable,
    };
  }

  function accountAt(key: string, commitment?: Commitment): AccountState {
    const at = commitmentSlot(commitment);
    const earlier = earlierStates.get(key)?.find((e) => e.slot > at);
    return earlier ? earlier.state : readAccount(key);
  }

  function isBlockhashValid(blockhash: string): boolean {
    const height = blockhashHeight.get(blockhash);
    return height !== undefined && slot <= height + maxBlockhashAge;
  }

  /** The message's account keys with those its lookup tables load; null when a table is missing. */
  function resolveAccountKeys(message: VersionedMessage): LandedTransaction["accountKeys"] | null {
    const tables: AddressLookupTableAccount[] = [];
    for (const lookup of message.addressTableLookups) {
      const table = readAccount(lookup.accountKey.toBase58());
      if (!table) return null;
      tables.push(
        new AddressLookupTableAccount({
          key: lookup.accountKey,
          state: AddressLookupTableAccount.deserialize(table.data),
        }),
      );
    }
    const keys = message.getAccountKeys({ addressLookupTableAccounts: tables });
    return [
      ...keys.staticAccountKeys,
      ...(keys.accountKeysFromLookups?.writable ?? []),
      ...(keys.accountKeysFromLookups?.readonly ?? []),
    ];
  }

  function tokenBalances(states: AccountState[]): TokenBalance[] {
    const balances: TokenBalance[] = [];
    states.forEach((state, accountIndex) => {
      if (!state) return;
      const token = decodeTokenAccount(state.owner, state.data);
      if (!token) return;
      const mint = readAccount(token.mint);
      const decimals = mint ? decodeMint(mint.owner, mint.data)?.decimals : undefined;
      if (decimals === undefined) return;
      balances.push({
        accountIndex,
        mint: token.mint,
        owner: token.owner,
        programId: state.owner,
        amount: token.amount,
        decimals,
      });
    });
    return balances;
  }

  function innerInstructionsOf(meta: TransactionMetadata) {
    return meta
      .innerInstructions()
      .map((group, index) => ({
        index,
        instructions: group.map((inner) => {
          const ix = inner.instruction();
          return {
            programIdIndex: ix.programIdIndex(),
            accounts: [...ix.accounts()],
            data: ix.data(),
            stackHeight: inner.stackHeight(),
          };
        }),
      }))
      .filter((group) => group.instructions.length > 0);
  }

  function returnDataOf(meta: TransactionMetadata) {
    const returned = meta.returnData();
    const data = returned.data();
    return data.length ? { programId: new PublicKey(returned.programId()).toBase58(), data } : null;
  }

  function land(
    transaction: VersionedTransaction,
    wire: Uint8Array,
    accountKeys: PublicKey[],
  ): LandedTransaction | null {
    const keys = accountKeys.map((k) => k.toBase58());
    const pre = keys.map(readAccount);
    const result = svm.sendTransaction(decoder.decode(wire));
    const failed = result instanceof FailedTransactionMetadata;
    const post = keys.map(readAccount);
    // A transaction that could not pay its fee (unknown payer, too poor, bad lookup table) is never in a block.
    if (failed && (pre[0]?.lamports ?? 0n) === (post[0]?.lamports ?? 0n)) return null;
    const meta = failed ? result.meta() : result;
    const loadedCount = transaction.message.addressTableLookups.reduce(
      (n, l) => n + l.writableIndexes.length + l.readonlyIndexes.length,
      0,
    );
    const staticCount = keys.length - loadedCount;
    const writableLoaded = transaction.message.addressTableLookups.reduce((n, l) => n + l.writableIndexes.length, 0);
    const landed: LandedTransaction = {
      signature: bs58.encode(transaction.signatures[0]),
      slot,
      blockTime: blockTimes.get(slot)!,
      transaction,
      accountKeys,
      loadedAddresses: {
        writable: keys.slice(staticCount, staticCount + writableLoaded),
        readonly: keys.slice(staticCount + writableLoaded),
      },
      err: failed ? transactionErrorJson(result) : null,
      fee: transactionFee(transaction.message, accountKeys),
      logs: meta.logs(),
      innerInstructions: innerInstructionsOf(meta),
      computeUnitsConsumed: meta.computeUnitsConsumed(),
      returnData: returnDataOf(meta),
      preBalances: pre.map((s) => s?.lamports ?? 0n),
      postBalances: post.map((s) => s?.lamports ?? 0n),
      preTokenBalances: tokenBalances(pre),
      postTokenBalances: tokenBalances(post),
      memo: agaveMemo(transaction.message, accountKeys),
    };
    keys.forEach((key, i) => {
      if (sameAccount(pre[i], post[i])) return;
      const list = earlierStates.get(key) ?? [];
      list.push({ slot, state: pre[i] });
      earlierStates.set(key, list);
    });
    transactions.set(landed.signature, landed);
    bySlot.set(slot, [...(bySlot.get(slot) ?? []), landed]);
    for (const key of new Set(keys)) byAddress.set(key, [...(byAddress.get(key) ?? []), landed]);
    for (const listener of transactionListeners) listener(landed);
    return landed;
  }

  return {
    svm,
    slot: commitmentSlot,
    blockHeight: commitmentSlot,
    blockTime: (s: number) => blockTimes.get(s) ?? null,
    latestBlockhash(commitment?: Commitment) {
      const at = commitmentSlot(commitment);
      return { blockhash: blockhashOfSlot.get(at)!, lastValidBlockHeight: at + maxBlockhashAge, slot: at };
    },
    isBlockhashValid,
    account: accountAt,
    transaction: (signature: string) => transactions.get(signature),
    /** The commitment a landed transaction has reached. */
    commitmentOf(tx: LandedTransaction): Commitment {
      if (tx.slot <= commitmentSlot("finalized")) return "finalized";
      return tx.slot <= commitmentSlot("confirmed") ? "confirmed" : "processed";
    },
    /** Transactions that mention an address, oldest first, visible at the commitment. */
    transactionsOf(key: string, commitment?: Commitment): LandedTransaction[] {
      const at = commitmentSlot(commitment);
      return (byAddress.get(key) ?? []).filter((tx) => tx.slot <= at);
    },
    /** Transactions of the slots in (after, upTo], oldest first. */
    transactionsInSlots(after: number, upTo: number): LandedTransaction[] {
      const found: LandedTransaction[] = [];
      for (let s = after + 1; s <= upTo; s++) found.push(...(bySlot.get(s) ?? []));
      return found;
    },
    /** Addresses of the accounts a program owns now (token accounts of an owner are found by scanning them). */
    programAccounts: (programId: string) => svm.getProgramAccounts(address(programId)).map((a) => a.address as string),
    minimumBalanceForRentExemption: (dataLength: number) => svm.minimumBalanceForRentExemption(BigInt(dataLength)),
    fee(message: VersionedMessage): bigint | null {
      const keys = resolveAccountKeys(message);
      return keys && isBlockhashValid(message.recentBlockhash) ? transactionFee(message, keys) : null;
    },
    /** Genesis funding: credits lamports outside any transaction, visible at every commitment. */
    airdrop(key: string, lamports: bigint) {
      svm.airdrop(address(key), toLamports(lamports));
    },

    /** Sends a wire transaction as `sendTransaction` does: checks, optional preflight, then lands it in this slot. */
    submit(wire: Uint8Array, { skipPreflight = false } = {}): SubmitOutcome {
      const transaction = VersionedTransaction.deserialize(wire);
      const signature = bs58.encode(transaction.signatures[0]);
      const refuse = (err: TransactionErrorInfo): SubmitOutcome =>
        skipPreflight
          ? { kind: "dropped", signature }
          : { kind: "preflightFailure", signature, failure: { err, logs: [], unitsConsumed: 0n } };
      if (!verifyTransactionSignatures(transaction))
        return skipPreflight ? { kind: "dropped", signature } : { kind: "signatureFailure", signature };
      if (transactions.has(signature)) return refuse(fieldlessTransactionError("AlreadyProcessed"));
      if (!isBlockhashValid(transaction.message.recentBlockhash))
        return refuse(fieldlessTransactionError("BlockhashNotFound"));
      const accountKeys = resolveAccountKeys(transaction.message);
      if (!accountKeys) return refuse(fieldlessTransactionError("AddressLookupTableNotFound"));
      if (droppedPayers.has(accountKeys[0]!.toBase58())) return { kind: "dropped", signature };
      if (!skipPreflight) {
        const simulated = svm.simulateTransaction(decoder.decode(wire));
        if (simulated instanceof FailedTransactionMetadata) {
          const meta = simulated.meta();
          return {
            kind: "preflightFailure",
            signature,
            failure: {
              err: transactionErrorJson(simulated),
              logs: meta.logs(),
              unitsConsumed: meta.computeUnitsConsumed(),
            },
          };
        }
      }
      const landed = land(transaction, wire, accountKeys);
      return landed ? { kind: "landed", signature, transaction: landed } : { kind: "dropped", signature };
    },

    /** Runs a wire transaction without landing it (`simulateTransaction`); signatures only checked on request. */
    simulate(
      wire: Uint8Array,
      { sigVerify = false, replaceRecentBlockhash = false, accounts = [] as string[] } = {},
    ): SimulateOutcome | "signatureFailure" {
      const transaction = VersionedTransaction.deserialize(wire);
      if (sigVerify && !verifyTransactionSignatures(transaction)) return "signatureFailure";
      const empty = { logs: [], unitsConsumed: 0n, accounts: null, returnData: null, innerInstructions: [] };
      if (!replaceRecentBlockhash && !isBlockhashValid(transaction.message.recentBlockhash))
        return { err: fieldlessTransactionError("BlockhashNotFound"), ...empty };
      if (!resolveAccountKeys(transaction.message))
        return { err: fieldlessTransactionError("AddressLookupTableNotFound"), ...empty };
      svm.withSigverify(false);
      try {
        const simulated = svm.simulateTransaction(decoder.decode(wire));
        if (simulated instanceof FailedTransactionMetadata) {
          const meta = simulated.meta();
          return {
            ...empty,
            err: transactionErrorJson(simulated),
            logs: meta.logs(),
            unitsConsumed: meta.computeUnitsConsumed(),
          };
        }
        const meta = simulated.meta();
        const after = new Map(
          simulated.postAccounts().map((a) => [
            a.address as string,
            {
              lamports: a.lamports as bigint,
              owner: a.programAddress as string,
              data: Uint8Array.from(a.data),
              executable: a.executable,
            } as AccountState,
          ]),
        );
        return {
          err: null,
          logs: meta.logs(),
          unitsConsumed: meta.computeUnitsConsumed(),
          accounts: new Map(accounts.map((key) => [key, after.has(key) ? after.get(key)! : readAccount(key)])),
          returnData: returnDataOf(meta),
          innerInstructions: innerInstructionsOf(meta),
        };
      } finally {
        svm.withSigverify(true);
      }
    },

    /**
     * While `dropping`, what `payer` sends is accepted and never included, as a validator under load drops
     * transactions: only a new signature with a valid blockhash lands once it stops.
     */
    dropTransactionsOf(payer: string, dropping = true) {
      if (dropping) droppedPayers.add(payer);
      else droppedPayers.delete(payer);
    },

    /** Closes the current slot and opens `count` new ones (the timer calls it; tests may too). */
    advance(count = 1) {
      for (let i = 0; i < count; i++) {
        slot += 1;
        openSlot();
        const rooted = commitmentSlot("finalized");
        for (const [key, list] of earlierStates) {
          const kept = list.filter((e) => e.slot > rooted);
          if (kept.length) earlierStates.set(key, kept);
          else earlierStates.delete(key);
        }
        blockhashOfSlot.delete(slot - maxBlockhashAge - finalizedAfterSlots - 1);
        for (const listener of slotListeners) listener(slot);
      }
    },
    onSlot(listener: (slot: number) => void) {
      slotListeners.add(listener);
      return () => slotListeners.delete(listener);
    },
    onTransaction(listener: (tx: LandedTransaction) => void) {
      transactionListeners.add(listener);
      return () => transactionListeners.delete(listener);
    },
  };
}

function sameAccount(a: AccountState, b: AccountState): boolean {
  if (!a || !b) return a === b;
  return (
    a.lamports === b.lamports &&
    a.owner === b.owner &&
    a.executable === b.executable &&
    Buffer.from(a.data).equals(Buffer.from(b.data))
  );
}
