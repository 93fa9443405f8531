import { Connection, PublicKey, type ConfirmedSignatureInfo } from "@solana/web3.js";
import type { SvmDepositTargets } from "../../src/chains/svm/svmDepositFacts.js";
import { svmDepositFacts } from "../../src/chains/svm/svmDepositFacts.js";
import { svmFillFacts } from "../../src/chains/svm/svmFillFacts.js";
import { svmWithdrawalFacts } from "../../src/chains/svm/svmWithdrawalFacts.js";
import type { PollerCursor, PollerSource, PolledFacts } from "../poller/pollerSource.js";

export type SolanaSignaturesSourceOptions = {
  rpcUrl: string;
  /** The depository and its token accounts: their signatures are read. */
  targets: SvmDepositTargets;
  /** The solver's wallet, which pays EVM → Solana fills: its `finalized` signatures are read for fills. */
  solver?: string;
  /**
   * The first slot read (the chains file's `startBlock`): older signatures are not listed, so a poller started on a
   * depository with a long history does not read it all.
   */
  startSlot?: number;
  /** Transactions read in one page at most (a page ends with its last slot, so it may hold a few more). */
  pageTransactions?: number;
  /** How long one request may take before it fails (the poller backs off and retries). */
  timeoutMs?: number;
};

/** What `getSignaturesForAddress` gives at most a call. */
const SIGNATURES_PAGE = 1000;

/** A listed signature, `rank` its place in its address's list (0 the newest). */
type Listed = ConfirmedSignatureInfo & { rank: number };

/** The cursor's key: the newest signature read of each watched address. */
type CursorKey = Record<string, string>;
const parseKey = (cursor: PollerCursor | undefined): CursorKey => (cursor ? (JSON.parse(cursor.key) as CursorKey) : {});

/**
 * The poller source of a Solana chain over its JSON-RPC: the `confirmed` signatures of the depository and of its token
 * accounts since the cursor (`getSignaturesForAddress` newest first, paged with `before` back to `until`, the newest
 * one read before), oldest first, and the deposit facts of each transaction (`svmDepositFacts`), and the `finalized`
 * signatures of the solver's wallet for its fills (`svmFillFacts`); the depository's own memo-named payments are its
 * refunds (withdrawal facts). A failed transaction
 * is passed over (it moved nothing). The cursor stands at the slot of the last transaction read — at the confirmed
 * head once all is read — its key the newest signature read of each address: Solana skips slots, so positions are
 * slots as they came, never counted.
 * A source without a reorg check: a dropped deposit is the deposit check's to find (`checkSvmDeposit`).
 */
export function solanaSignaturesSource(options: SolanaSignaturesSourceOptions): PollerSource {
  const { targets, pageTransactions = 100, timeoutMs = 10_000, startSlot = 0 } = options;
  const connection = new Connection(options.rpcUrl, {
    commitment: "confirmed",
    fetch: (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) }),
  });
  const watched = [targets.depository, ...targets.tokenAccounts.keys(), ...(options.solver ? [options.solver] : [])];
  // A fill is the chain's word once finalized (as the solver follows it); deposits are read confirmed, and their
  // check waits for finality.
  const commitmentOf = (address: string) => (address === options.solver ? "finalized" : "confirmed");

  /** The signatures of `address` newer than `until`, newest first. */
  async function newer(address: string, until: string | undefined): Promise<Listed[]> {
    const listed: Listed[] = [];
    for (;;) {
      const before = listed.at(-1)?.signature;
      const page = await connection.getSignaturesForAddress(
        new PublicKey(address),
        { limit: SIGNATURES_PAGE, ...(until ? { until } : {}), ...(before ? { before } : {}) },
        commitmentOf(address),
      );
      listed.push(...page.map((entry, index) => ({ ...entry, rank: listed.length + index })));
      if (page.length < SIGNATURES_PAGE || page.at(-1)!.slot < startSlot)
        return listed.filter((entry) => entry.slot >= startSlot);
    }
  }

  return {
    async read(after) {
      const key = parseKey(after);
      // Asked first: every deposit confirmed by then is in the lists read after it.
      const head = await connection.getSlot("confirmed");
      const lists = await Promise.all(watched.map((address) => newer(address, key[address])));
      // The cursor never goes back: a solver's fill finalized late is older than deposits read before it.
      const position = (slot: number) => Math.max(slot, Number(after?.position ?? 0));
      // One entry a signature (a transfer to the depository's token account may list both), oldest first.
      const bySignature = new Map<string, Listed>();
      for (const entry of lists.flat()) if (!bySignature.has(entry.signature)) bySignature.set(entry.signature, entry);
      const ordered = [...bySignature.values()].sort((a, b) => a.slot - b.slot || b.rank - a.rank);
      const facts: PolledFacts = { deposits: [], fills: [], withdrawals: [] };
      // Nothing new up to the head: the cursor follows it, so a quiet chain's slots are counted (the unmatched
      // deposits' refund time) and its lag is 0.
      if (ordered.length === 0)
        return {
          facts,
          cursor: after && head <= after.position ? after : { position: position(head), key: JSON.stringify(key) },
          head,
          more: false,
        };
      // A page ends with a whole slot: the next read's `until` then never splits one.
      let end = Math.min(pageTransactions, ordered.length);
      while (end < ordered.length && ordered[end]!.slot === ordered[end - 1]!.slot) end += 1;
      const taken = ordered.slice(0, end);
      for (const entry of taken) {
        if (entry.err !== null) continue;
        const tx = await connection.getParsedTransaction(entry.signature, {
          commitment: "confirmed",
          maxSupportedTransactionVersion: 0,
        });
        if (!tx) throw new Error(`Solana transaction ${entry.signature} is listed but not served yet`);
        facts.deposits.push(...svmDepositFacts(tx, targets));
        if (options.solver) facts.fills.push(...svmFillFacts(tx, options.solver));
        facts.withdrawals.push(...svmWithdrawalFacts(tx, targets.depository));
      }
      const takenSignatures = new Set(taken.map((entry) => entry.signature));
      const next: CursorKey = { ...key };
      watched.forEach((address, index) => {
        // Lists are newest first: the first taken entry of each is the newest read of its address.
        const newest = lists[index]!.find((entry) => takenSignatures.has(entry.signature));
        if (newest) next[address] = newest.signature;
      });
      const last = taken.at(-1)!;
      const more = end < ordered.length;
      return {
        facts,
        cursor: { position: position(more ? last.slot : Math.max(last.slot, head)), key: JSON.stringify(next) },
        head,
        more,
      };
    },
  };
}
