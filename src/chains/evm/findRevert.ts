import {
  BaseError,
  CallExecutionError,
  ContractFunctionRevertedError,
  ExecutionRevertedError,
  type Hex,
  HttpRequestError,
  RpcError,
  RpcRequestError,
  SocketClosedError,
  TimeoutError,
  WebSocketRequestError,
} from "viem";

// A JSON-RPC error other than 3 (execution reverted) is the node failing, even where viem reports it inside a
// ContractFunctionRevertedError ("reverted with the following reason: internal error").
const isNodeFailure = (e: unknown) =>
  ((e instanceof RpcError || e instanceof RpcRequestError) && e.code !== 3) ||
  e instanceof HttpRequestError ||
  e instanceof TimeoutError ||
  e instanceof WebSocketRequestError ||
  e instanceof SocketClosedError;

// JSON-RPC error 3 is the node's "execution reverted", whatever its message says.
const isRevert = (e: unknown) =>
  e instanceof ExecutionRevertedError ||
  e instanceof ContractFunctionRevertedError ||
  (e instanceof RpcRequestError && e.code === 3);

/**
 * The revert inside a viem error (a failed simulation, estimate or call), with its raw data when the node
 * returned any; undefined when the error is not a revert (a network failure, a timeout, a node's internal
 * error: viem wraps each of those in the same CallExecutionError as a revert).
 */
export function findRevert(error: unknown): { data: Hex | undefined; message: string } | undefined {
  if (!(error instanceof BaseError) || error.walk(isNodeFailure) || !error.walk(isRevert)) return undefined;
  const revert = error.walk(
    (e) => e instanceof CallExecutionError || e instanceof ContractFunctionRevertedError || isRevert(e),
  ) as BaseError & { data?: Hex | { data?: Hex }; raw?: Hex };
  const nested = error.walk((e) => typeof (e as { data?: unknown }).data === "string") as { data?: Hex } | null;
  const data = revert.raw ?? (typeof revert.data === "string" ? revert.data : undefined) ?? nested?.data;
  return { data, message: revert.shortMessage };
}
