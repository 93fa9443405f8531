/** The shapes of the query answers in queries.ts. */

/** How a deposit was found gone (reorged out or replaced), if it was. */
export type Reorg = { detectedAt?: number; reason?: string; blockNumber?: number };
/** A request's deposit, as the request page's timeline reads it. */
export type TimelineDeposit = { txHash: string; chainId: number; reorg: Reorg | null };
export type Chain = {
  id: number;
  displayName: string;
  /** Where a request without a deposit address is paid (with its order id). */
  depository: string;
  explorerUrl: string;
  explorerPaths: { transaction: string };
};

type Amount = { amountFormatted: string; amountUsd?: string; currency: { symbol: string } };
type FeeComponent = { amountFormatted: string; usd: string };
type Transaction = { txHash: string; chainId: number };

export type StatusEvent = {
  id: string;
  status: string;
  createdAt: string;
  failReason: string | null;
  refundFailReason: string | null;
};

export type Refund = {
  txHash: string | null;
  chainId: number;
  status: string;
  reason: string;
  amount: string | null;
  deposited: string;
  recipient: string;
  currency: { symbol: string; decimals: number } | null;
};

export type RequestDetail = {
  id: string;
  status: string;
  createdAt: string;
  updatedAt: string;
  failReason: string | null;
  refundFailReason: string | null;
  user: string;
  recipient: string;
  refundTo: string | null;
  requestType: string;
  deadline: string;
  orderId: string;
  /** What the quote asks to be paid, smallest unit, in currencyIn. */
  amountIn: string;
  currencyIn: { symbol: string; decimals: number; address: string; metadata: { isNative: boolean } } | null;
  /** A child request (a further payment of a paid quote): the request it paid again. */
  parentRequestId: string | null;
  originChainId: number;
  destinationChainId: number;
  /** Set for a deposit-address request (Bitcoin origin): where the user pays, open or strict. */
  depositAddress: { address: string; type: string } | null;
  /** A regenerated deposit-address request: the one that now owns the address, its fill and sweep. */
  supersededByRequestId: string | null;
  route: {
    actual: {
      origin: { inputCurrency: Amount | null; outputCurrency: Amount | null };
      destination: { outputCurrency: Amount | null } | null;
    };
  };
  fees: {
    actual: Record<"execution" | "platform" | "app" | "swap" | "sponsored", FeeComponent>;
    currency: { symbol: string };
  };
  deposits: TimelineDeposit[];
  fills: Transaction[];
  failedTransaction: { txHash: string | null } | null;
  refunds: Refund[];
  statusEvents: StatusEvent[];
};

export type RequestSummary = {
  id: string;
  status: string;
  createdAt: string;
  originChainId: number;
  destinationChainId: number;
  parentRequestId: string | null;
  user: string;
  recipient: string;
  route: {
    actual: {
      origin: { inputCurrency: Amount | null; outputCurrency: Amount | null };
      destination: { outputCurrency: Amount | null } | null;
    };
  };
};
