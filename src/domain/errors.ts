/**
 * One error hierarchy for the whole service. Each error carries the spec's `errorCode`, the HTTP status it
 * maps to at the REST edge and whether retrying can help; edges translate it, nothing else inspects it.
 */
export type ErrorCode =
  | "INVALID_INPUT"
  | "INVALID_SLIPPAGE_TOLERANCE"
  | "INVALID_ADDRESS"
  | "INVALID_RECIPIENT"
  | "UNSUPPORTED_CHAIN"
  | "UNSUPPORTED_CURRENCY"
  | "UNSUPPORTED_ROUTE"
  /** Crossfill's own: an operator disabled the chain (`crossfill chains disable`); it takes no new requests. */
  | "CHAIN_DISABLED"
  | "AMOUNT_TOO_LOW"
  /** Crossfill's own: the fill's fees take the whole input (the spec keeps AMOUNT_TOO_LOW for small same-chain swaps). */
  | "AMOUNT_DOES_NOT_COVER_FEES"
  | "AMOUNT_TOO_HIGH"
  | "INSUFFICIENT_LIQUIDITY"
  /** The spec's: a Bitcoin `user` holds less than the deposit and its network fee. */
  | "INSUFFICIENT_FUNDS"
  | "REQUEST_NOT_FOUND"
  | "TRANSACTION_NOT_FOUND"
  | "NOT_FOUND"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "RATE_LIMITED"
  | "REQUEST_TIMED_OUT"
  | "RPC_HTTP_ERROR"
  | "SERVICE_UNAVAILABLE"
  | "PRICE_FETCH_FAILED"
  | "DESTINATION_TX_FAILED"
  | "INVALID_SIGNATURE"
  /** The spec's code; here also an app fee claim above the wallet's unclaimed balance. */
  | "INSUFFICIENT_FUNDS"
  /** The spec's fail reason, also a quote's: the sponsor's balance cannot cover the fees it would sponsor. */
  | "SPONSOR_BALANCE_TOO_LOW"
  /** The spec's: a Solana deposit transaction past the 1,232-byte wire limit. */
  | "SOLANA_TX_TOO_LARGE"
  /** The spec's fail reason, also a quote's: the solver cannot pay the rent of the recipient's new account. */
  | "INSUFFICIENT_FUNDS_FOR_RENT"
  | "NONCE_ALREADY_MAPPED"
  | "REQUEST_NOT_WAITING"
  | "UNKNOWN_ERROR";

export type CrossfillErrorOptions = {
  status: number;
  retryable?: boolean;
  cause?: unknown;
  details?: Record<string, unknown>;
  /** Fields the error body carries beside message and errorCode (the quote endpoints' simulation facts). */
  data?: Record<string, unknown>;
};

export class CrossfillError extends Error {
  override name = "CrossfillError";
  readonly errorCode: ErrorCode;
  readonly status: number;
  readonly retryable: boolean;
  readonly details?: Record<string, unknown>;
  readonly data?: Record<string, unknown>;

  constructor(errorCode: ErrorCode, message: string, options: CrossfillErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.errorCode = errorCode;
    this.status = options.status;
    this.retryable = options.retryable ?? false;
    this.details = options.details;
    this.data = options.data;
  }
}

/** The caller sent something we cannot act on; nothing was written. */
export class InvalidInputError extends CrossfillError {
  override name = "InvalidInputError";
  constructor(errorCode: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(errorCode, message, { status: 400, details });
  }
}

export class NotFoundError extends CrossfillError {
  override name = "NotFoundError";
  constructor(errorCode: ErrorCode, message: string) {
    super(errorCode, message, { status: 404 });
  }
}

/** No API key, or a key that is unknown or revoked. */
export class UnauthorizedError extends CrossfillError {
  override name = "UnauthorizedError";
  constructor(message: string) {
    super("UNAUTHORIZED", message, { status: 401 });
  }
}

/** An authenticated caller asked for something its integrator does not own. */
export class ForbiddenError extends CrossfillError {
  override name = "ForbiddenError";
  constructor(message: string) {
    super("FORBIDDEN", message, { status: 403 });
  }
}

/** The request conflicts with what is already recorded (a nonce mapped elsewhere, a request past waiting). */
export class ConflictError extends CrossfillError {
  override name = "ConflictError";
  constructor(errorCode: ErrorCode, message: string) {
    super(errorCode, message, { status: 409 });
  }
}

/** Too many calls in the current window; `retryAfterSeconds` goes to the Retry-After header. */
export class RateLimitedError extends CrossfillError {
  override name = "RateLimitedError";
  /** Without `details` (a cap on things held at once, not calls per window) no retry headers go out. */
  constructor(
    message: string,
    details?: { retryAfterSeconds: number; limit: number; windowSeconds: number; policy: string },
  ) {
    super("RATE_LIMITED", message, { status: 429, retryable: true, details });
  }
}

/**
 * A dependency (RPC, database, price feed) failed in a way that may pass; safe to retry. `details` (never in the
 * answer) name what failed, e.g. the currency whose price is missing, for the logs.
 */
export class TransientError extends CrossfillError {
  override name = "TransientError";
  constructor(errorCode: ErrorCode, message: string, cause?: unknown, details?: Record<string, unknown>) {
    super(errorCode, message, { status: 503, retryable: true, cause, details });
  }
}

/** A chain node did not answer in time (REQUEST_TIMED_OUT); 504, as a gateway whose upstream timed out. */
export class UpstreamTimeoutError extends CrossfillError {
  override name = "UpstreamTimeoutError";
  constructor(message: string, cause?: unknown) {
    super("REQUEST_TIMED_OUT", message, { status: 504, retryable: true, cause });
  }
}

/** A chain node could not be reached or answered with an error (RPC_HTTP_ERROR); 502, a bad upstream answer. */
export class UpstreamFailureError extends CrossfillError {
  override name = "UpstreamFailureError";
  constructor(message: string, cause?: unknown) {
    super("RPC_HTTP_ERROR", message, { status: 502, retryable: true, cause });
  }
}

/** What a quote's failed simulation tells the client: the spec's quote error body fields. */
export type SimulationFailure = {
  errorData: string;
  requestId: string;
  approxSimulatedBlock: number;
  failedCallData: { from: string; to: string; data: string; value: string };
};

/** A quote whose destination fill reverts in simulation: nothing is recorded, the client sees why. */
export class SimulationRevertedError extends CrossfillError {
  override name = "SimulationRevertedError";
  constructor(message: string, data: SimulationFailure) {
    super("DESTINATION_TX_FAILED", message, { status: 400, data });
  }
}

/** Another worker holds the thing right now (its claim or lease); retrying later finds it free, or done. */
export class HeldElsewhereError extends CrossfillError {
  override name = "HeldElsewhereError";
  constructor(message: string) {
    super("SERVICE_UNAVAILABLE", message, { status: 409, retryable: true });
  }
}

export function isCrossfillError(error: unknown): error is CrossfillError {
  return error instanceof CrossfillError;
}
