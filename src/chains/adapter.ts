import type { FactPosition } from "../domain/factPosition.js";
import type { DepositValue } from "../domain/requiredConfirmations.js";
import type { FailReason } from "../domain/failReasons.js";
import type { FailedTransaction } from "../domain/failedTransaction.js";
import type { OrderData } from "../domain/order.js";
import type { NativeConversion } from "../domain/nativeConversion.js";
import type { ChainConfig } from "./chainConfig.js";
import type { AppliedDeposit, DepositFact, FillFact, WithdrawalFact } from "./chainFacts.js";
import type { FillLedger, FillLedgerTransaction, StoredFillAttempt } from "./fillLedger.js";
import type { Currency } from "./chainRegistry.js";
import type { VmFamily } from "./vmFamily.js";
import type { ReadAggregatorRound } from "../pricing/aggregator/aggregatorRound.js";

export type VmType = ChainConfig["vmType"];

/** A transaction as the spec shows a call: who sent it, to whom, with what data and value (smallest unit). */
export type TransactionCall = { from: string; to: string; data: string; value: bigint };

/** Simulated and priced, waiting only for its nonce; only the adapter that made it reads `payload`. */
export type PreparedTransaction = { readonly chainId: number; readonly payload: unknown };

/**
 * Signed and stored before it is broadcast: a retry re-sends the same bytes. `nonce` is the account nonce it spends
 * (EVM); null where the chain has none (Bitcoin: a transaction spends outputs, which keep it from repeating).
 */
export type SignedTransaction = { nonce: number | null; rawTx: string; txHash: string };

/** What the solver pays out on the destination chain for one request. */
export type FillOrder = {
  requestId: string;
  /** The order it pays (`protocol.v2.orderId`); Bitcoin writes it as the payout's OP_RETURN. */
  orderId: string;
  currency: string;
  amount: bigint;
  recipient: string;
  calls: readonly { to: string; value: bigint; data: string }[];
  /** Names the currency in failure messages. */
  currencySymbol: string;
  /**
   * A Wrap or Unwrap: the fill converts the solver's input-side currency through `wrappedNative` (the chain's
   * WETH9) instead of paying `currency` from inventory; `amount` is both what is converted and what is paid.
   */
  conversion?: { kind: NativeConversion; wrappedNative: string };
  /**
   * The rent, in the chain's native currency, the quote charged for opening the recipient's account (Solana: its
   * associated token account); none when absent. A fill that would have to pay more is refused
   * (NEW_CALLDATA_INCLUDES_HIGHER_RENT_FEE): the recipient closed its account after the quote.
   */
  quotedRent?: bigint;
};

export type FillFailure = { failReason: FailReason; details: Record<string, unknown> };

/** A fill that cannot succeed: why (the spec's failReason) and the call that reverted. */
export type FillRefusal = { failure: FillFailure; call: TransactionCall; revertData: string | undefined };

/**
 * The Depository withdrawal paying a deposit back; `deposit` is the deposit's place (Bitcoin spends that output,
 * an EVM Depository withdraws from its balance).
 */
export type RefundOrder = {
  orderId: string;
  currency: string;
  recipient: string;
  amount: bigint;
  /** The deposit paid back, when the chain spends it itself (Bitcoin); none for a withdrawal of pooled funds. */
  deposit?: { txHash: string; position: FactPosition };
  /**
   * The rent, in the chain's native currency, the refund's fee charged for opening the recipient's account (`payoutRent`
   * when it was priced); none when absent. A refund that would have to pay more is refused: the refundee names the
   * recipient, so it never opens an account at the payer's cost.
   */
  chargedRent?: bigint;
};

export type DepositCheck =
  | { state: "final" }
  | { state: "confirming"; missingBlocks: number }
  /**
   * The deposit is not where it was seen: DEPOSIT_REORGED (the default) for one reorged out of a block,
   * DOUBLE_SPEND for a mempool deposit replaced or double-spent before it confirmed.
   */
  | { state: "reorged"; reorg: Record<string, unknown>; failReason?: "DEPOSIT_REORGED" | "DOUBLE_SPEND" }
  /**
   * A reorg mined the deposit's transaction again in another block, paying the same: the same payment, now there (at
   * `position` of it: an EVM log's index counts the whole block's logs). Its request follows it and waits for its
   * confirmations there.
   */
  | { state: "moved"; to: { position: FactPosition; blockNumber: bigint; blockHash: string; timestamp: bigint } };

/** When a sent fill that is not mined is re-priced, and finally cancelled. */
export type StuckFillPolicy = {
  /** How long a sent fill may stay unmined before it is re-sent with higher fees. */
  bumpAfterMs: number;
  /** Re-priced sends before the nonce is spent on a cancellation instead. */
  maxBumps: number;
  /** Outright refusals of the fill by the node before its nonce is spent on a cancellation. */
  maxBroadcastFailures: number;
};

export type FillOutcome =
  | { state: "mined"; txHash: string; blockNumber: bigint; fee: bigint }
  | { state: "reverted"; txHash: string; failure: FillFailure; failedTransaction: FailedTransaction }
  | { state: "cancelled"; nonceSpentBy: string; neverAccepted: boolean }
  | { state: "in-flight"; txHash: string; action: "re-sent" | "bumped" | "cancelling" };

/** A mined transaction as its receipt shows it. */
export type MinedReceipt = {
  succeeded: boolean;
  blockNumber: bigint;
  /** The rest is read only for a succeeded transaction (a reverted one made no fill): its block and what it paid. */
  blockHash?: string;
  timestamp?: bigint;
  fee?: bigint;
  /** The Receiver's Fill events it emitted, in the encodings the indexer records (lower case). */
  fills?: ReceiptFill[];
  /**
   * The chain's own hash of the transaction, where it differs from the id it was asked by: the perps exchange names a
   * transfer only once it commits it, so the service stores another id until then and this one after.
   */
  txHash?: string;
};

/** One Receiver Fill event of a receipt. */
export type ReceiptFill = {
  position: FactPosition;
  requestId: string;
  currency: string;
  recipient: string;
  amount: bigint;
};

export type QuoteStep = {
  /** `authorize` (a signature, before the deposit): a withdrawal from the perps exchange's nonce mapping. */
  id: "approve" | "authorize" | "deposit";
  action: string;
  description: string;
  kind: "transaction" | "signature";
  requestId: string;
  /** A transaction step's deposit address ("" when none); a signature step has none. */
  depositAddress?: string;
  items: {
    status: "incomplete";
    /** What the wallet performs, in its family's shape (EVM: from, to, data, value, chainId). */
    data: Record<string, unknown>;
    check?: { endpoint: string; method: "GET" };
  }[];
};

export type DepositStepsInput = {
  user: string;
  currency: Currency;
  amount: bigint;
  orderId: string;
  requestId: string;
  /** What the user already lets the Depository take (from `readDepositAccount`). */
  allowance: bigint;
  destinationName: string;
  /** `useDepositAddress`: the address to pay instead of signing a deposit (from `depositAddressFor`). */
  depositAddress?: string;
  /** The quote's `protocolVersion`, for an origin that requires it (the perps exchange's withdrawals). */
  protocolVersion?: "v2";
  /** `depositFeePayer` (an origin whose capabilities take it): who pays the deposit transaction's fee and rent. */
  feePayer?: string;
};

/**
 * What a deposit address is made for: the quote's order and depositor (an EVM family's CREATE2 salt), and a number
 * never handed out before, for a family that derives its addresses by index (Bitcoin's HD index).
 */
export type DepositAddressReference = {
  orderId: string;
  requestId: string;
  depositor: string;
  nextIndex(): Promise<number>;
};

/** The operations whose network fee a quote or refund prices before any transaction exists. */
export type FeeOperation = "deposit" | "fill" | "refund";

/** What every role port names: the chain it serves (its id, block time, confirmations tiers). */
export interface ChainPort {
  readonly chain: ChainConfig;
}

/**
 * Quoting (the gateway): what an origin or destination chain is asked to price, check and lay out a request. Every
 * adapter has it; amounts are bigint in the smallest unit, addresses and hashes strings.
 */
export interface QuotePort extends ChainPort, VmFamily<VmType> {
  /** The solver's account here: it signs fills, refunds and orders, and is paid the fees. */
  readonly solverAddress: string;

  /**
   * Why a fill cannot pay this (parsed) address, in the spec's terms; undefined when it can. `currency` is what it
   * would be paid (Solana: an SPL payment needs a wallet on the curve to own its token account).
   */
  recipientRefusal(
    address: string,
    currency?: string,
  ): { errorCode: "INVALID_ADDRESS" | "INVALID_RECIPIENT"; message: string } | undefined;

  /**
   * Why a destination call may not be sent to this (parsed) address: the service's own contracts, which calls must
   * never reach; undefined when it may. Chains that take no destination calls leave it out.
   */
  callTargetRefusal?(to: string): string | undefined;

  /**
   * The network fee of an operation on this chain, in its native currency. `currency` is what the solver spends (a
   * fill's: its conversion's input when `conversion` is given, a Wrap's ether or an Unwrap's wrapped native).
   */
  estimateFee(
    operation: FeeOperation,
    currency: string,
    callCount?: number,
    conversion?: NativeConversion,
  ): Promise<bigint>;
  balanceOf(owner: string, currency: string): Promise<bigint>;
  /** The node's head height, asked of the node: whether the chain's endpoint answers (readiness). */
  headHeight(): Promise<bigint>;
  /** What a depositor holds of a currency and lets the Depository take (0 when nothing needs approving). */
  readDepositAccount(user: string, currency: string): Promise<{ balance: bigint; allowance: bigint }>;
  /** The smallest deposit the chain carries (Bitcoin: the depository output's dust limit; EVM: 1). */
  minimumDeposit(currency: string): bigint;
  /** The smallest fill the chain carries to this (parsed) recipient (Bitcoin: its output's dust limit; EVM: 1). */
  minimumPayout(currency: string, recipient: string): bigint;
  /**
   * The rent, in the native currency, the solver's fill pays to open the (parsed) recipient's account for `currency`
   * as the chain stands now (Solana: a missing associated token account); the quote charges it as its `rent` fee.
   * Absent where a payout opens nothing at the solver's cost.
   */
  payoutRent?(currency: string, recipient: string): Promise<bigint>;
  /**
   * The origin steps of a quote: whatever must precede the deposit, then the deposit committing to the order.
   * Bitcoin reads the user's outputs and the fee rate for its PSBT (INSUFFICIENT_FUNDS when they fall short).
   */
  depositSteps(input: DepositStepsInput): Promise<QuoteStep[]>;
  /**
   * Deposit addresses (`useDepositAddress`), on chains configured to offer them (Bitcoin: with a key to derive them):
   * the address for a quote, and the family's key of it that is stored beside it and that only the family reads
   * (Bitcoin: the derivation index, taken from `nextIndex`). Absent where the chain offers none.
   */
  depositAddressFor?(reference: DepositAddressReference): Promise<{ address: string; key: string }>;
  /**
   * The solver's signature of the order's id, as the order's `orderSignature` (the signer computes the id from the
   * order: it never signs a bare value). Absent where the family's fills carry none (Bitcoin: its payout names the
   * order in an OP_RETURN), or the role has no order signer: a quote asking for protocol data to such a destination
   * is refused.
   */
  signOrder?(order: OrderData): Promise<string>;
  /** Runs a fill against the current state without sending it; `blockNumber` is the state it ran on. */
  simulateFill(order: FillOrder): Promise<{ blockNumber: bigint; refusal: FillRefusal | undefined }>;
  /**
   * Reads a Chainlink-style aggregator on this chain for the price layer (a chain's `prices.<SYMBOL>.aggregator`).
   * Absent where the family has no such contracts.
   */
  readAggregatorRound?: ReadAggregatorRound;
}

/** Deposits and their finality (the reconcile, the manual index, the fill's deposit check, deposit-address sweeps). */
export interface DepositPort extends ChainPort {
  /** The deposits a transaction made; 404 TRANSACTION_NOT_FOUND when it is unknown or not yet included. */
  readDepositFacts(txHash: string): Promise<DepositFact[]>;
  /**
   * The fills our solver made and the depository's withdrawals (refunds) a transaction made, for the manual index
   * (the worker's reconcile and refund confirmer apply them as the indexer's own); absent where not read by hand.
   */
  readSettlementFacts?(txHash: string): Promise<{ fills: FillFact[]; withdrawals: WithdrawalFact[] }>;
  /** The finality rule: blocks a deposit of this value (its USD worth, its amount and currency) needs before it is filled. */
  requiredConfirmations(value: DepositValue): number;
  /** Whether a deposit is deep enough and still where it was indexed (asked of the node, not the indexer). */
  checkDeposit(deposit: AppliedDeposit, requiredConfirmations: number): Promise<DepositCheck>;
  /**
   * The worker's sweep of one deposit-address deposit to the depository (Bitcoin, with the extended private key):
   * signed, not sent; `skip` when the output pays no deposit address (the order was paid to the depository itself).
   * With `excess`, what the output holds above `keep` goes back to `excess.recipient` in the same transaction. The
   * chain's RefundPort sends it (a sweep is, like a refund, a spend of a deposit by the worker).
   */
  signSweep?(
    deposit: { txHash: string; position: FactPosition },
    excess?: { recipient: string; keep: bigint },
  ): Promise<
    | { rawTx: string; txHash: string; amount: bigint; fee: bigint; returned?: { recipient: string; amount: bigint } }
    | { skip: string }
  >;
}

/** Sending what a role prepared: signed and stored first, then broadcast (fills and refunds share it). */
export interface TransactionPort extends ChainPort {
  /**
   * Signs with the solver's next nonce from the ledger of the caller's database transaction, whose nonce lock (held
   * until it commits) keeps replicas from sharing or skipping a nonce; the caller stores the result there too.
   */
  signTransaction(ledger: FillLedgerTransaction, transaction: PreparedTransaction): Promise<SignedTransaction>;
  /** Sends a stored transaction; one the node already has counts as sent. */
  broadcast(signed: { rawTx: string; txHash: string }): Promise<void>;
  /**
   * A transaction's receipt now (a fill's, a refund's or app-fee payout's withdrawal), null when the node lacks it
   * (never mined, or reorged out); node failures throw. A family without it (Bitcoin) leaves outcomes to its indexer.
   */
  readReceipt?(txHash: string): Promise<MinedReceipt | null>;
  /**
   * Whether a sent transaction is mined (Bitcoin's sweeps and unmatched refunds, which read no receipts): undefined
   * when the node does not know it.
   */
  transactionMined?(txHash: string): Promise<boolean | undefined>;
  /**
   * A family whose sent transactions expire unlanded (Solana: a transaction names a recent blockhash, valid 150
   * blocks): the same transaction signed anew, once `sent` can never land — its blockhash expired, then it was found
   * nowhere on chain — so the two can never both land; undefined while it still may land (or has). The caller stores
   * the new one before it sends it. Absent where a sent transaction stays valid (an EVM nonce, Bitcoin's inputs).
   */
  resignExpired?(sent: { rawTx: string; txHash: string }): Promise<{ rawTx: string; txHash: string } | undefined>;
}

/** The solver's fills on a destination chain: setup, prepare, follow until the nonce is spent. */
export interface SolverPort extends TransactionPort {
  /** The account that signs and pays the fills (the quoter's `solverAddress`). */
  readonly solverAddress: string;
  /**
   * One-off setup before the solver takes work (EVM: token approvals); returns what it did, for the log. Absent
   * where there is nothing to set up (Bitcoin).
   */
  prepareSolver?(ledger: FillLedger): Promise<string[]>;
  /** Builds and simulates the fill; a fill that would revert is refused instead. */
  prepareFill(order: FillOrder): Promise<{ transaction: PreparedTransaction } | { refusal: FillRefusal }>;
  /**
   * Follows a sent fill until its nonce is spent: mined (by any re-priced version), reverted, or cancelled after
   * the policy's bumps. Every new version is stored (in `ledger`) before it is broadcast.
   */
  followFill(
    attempt: StoredFillAttempt,
    options: { ledger: FillLedger; policy: StuckFillPolicy; now?: number },
  ): Promise<FillOutcome>;
  /**
   * Waits for a sent transaction's receipt, asking the node every fraction of a block; undefined if not mined in time.
   * A family without it (Bitcoin) leaves a fill's `success` to its indexer.
   */
  waitForReceipt?(
    txHash: string,
    options: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<MinedReceipt | undefined>;
}

/** Refunds of deposits on an origin chain. */
export interface RefundPort extends TransactionPort {
  /**
   * A refund pays from the deposit itself (Bitcoin spends the deposit's output: a refund of a deposit a reorg takes back
   * is invalid with it), so it goes at once. False (EVM) where it pays from funds every deposit shares: it waits for
   * the deposit to be final, as a fill does.
   */
  refundSpendsDeposit: boolean;

  /** Builds and simulates the refund's withdrawal; one that would revert is refused with the node's reason. */
  prepareRefund(refund: RefundOrder): Promise<{ transaction: PreparedTransaction } | { refusal: string }>;
}

/**
 * One chain as the rest of Crossfill sees it, whatever its VM: the role ports its family implements. Every chain is
 * quoted (`quoter`); a family offers the other roles it has — an origin-only family no `solver`, a destination-only
 * one no `deposits` or `refunder` — and a role may lack its optional members. Quotes, jobs and the gateway call these
 * and import no chain SDK; they ask `ChainAdapters` for the role they need (`solver(id)`, `refunderOf(id)`), never
 * for the whole adapter. Network and node failures come out as the domain's retryable REQUEST_TIMED_OUT /
 * RPC_HTTP_ERROR errors.
 */
export type ChainRoles = {
  readonly quoter: QuotePort;
  readonly deposits?: DepositPort;
  readonly solver?: SolverPort;
  readonly refunder?: RefundPort;
};

/** An adapter that is one object playing every role (EVM, Bitcoin, the test family); `everyRole` lists its roles. */
export interface ChainAdapter extends QuotePort, DepositPort, SolverPort, RefundPort {}
