import { BaseError, type Hex } from "viem";

const TRANSPORT_FAILURES = new Set(["HttpRequestError", "TimeoutError", "WebSocketRequestError", "SocketClosedError"]);

/**
 * The revert inside a viem error (a failed simulation, estimate or call), with its raw data when the node
 * returned any; undefined when the error is not a revert (a network failure, a timeout…).
 */
export function findRevert(error: unknown): { data: Hex | undefined; message: string } | undefined {
  if (!(error instanceof BaseError)) return undefined;
  // viem wraps a call's transport failure in the same CallExecutionError as a revert.
  if (error.walk((e) => TRANSPORT_FAILURES.has((e as { name?: string }).name ?? ""))) return undefined;
  const revert = error.walk((e) => {
    const name = (e as { name?: string }).name;
    return (
      name === "ExecutionRevertedError" || name === "ContractFunctionRevertedError" || name === "CallExecutionError"
    );
  }) as (BaseError & { data?: Hex | { data?: Hex }; raw?: Hex }) | null;
  if (!revert) return undefined;
  const nested = error.walk((e) => typeof (e as { data?: unknown }).data === "string") as { data?: Hex } | null;
  const data = revert.raw ?? (typeof revert.data === "string" ? revert.data : undefined) ?? nested?.data;
  return { data, message: revert.shortMessage };
}
