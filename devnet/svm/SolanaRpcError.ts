/** A JSON-RPC error with Solana's code and message (Agave's `RpcCustomError` and jsonrpc-core's). */
export class SolanaRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "SolanaRpcError";
  }

  static invalidParams(message: string): SolanaRpcError {
    return new SolanaRpcError(-32602, message);
  }
}
