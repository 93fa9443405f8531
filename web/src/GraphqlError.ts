/** An error a GraphQL operation answered, with its `extensions.code` (UNAUTHORIZED, FORBIDDEN, INVALID_INPUT, …). */
export class GraphqlError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    /** From a rate-limited answer's Retry-After, when it had one. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}
