// ABIs only, with literal types (Ponder and viem infer event and function types from them).
import {
  callExecutorArtifact,
  callTargetArtifact,
  depositoryArtifact,
  receiverArtifact,
  testTokenArtifact,
  wrappedNativeArtifact,
} from "./artifacts.js";

export const depositoryAbi = depositoryArtifact.abi;
export const callExecutorAbi = callExecutorArtifact.abi;
/**
 * The Receiver as its callers see it: its own ABI, plus the errors of the CallExecutor it runs calls through, which
 * a fill's revert carries unchanged (`CallFailed(index, reason)`, `ForbiddenTarget(index, to)`).
 */
export const receiverAbi = [
  ...receiverArtifact.abi,
  ...callExecutorArtifact.abi.filter((item) => item.type === "error"),
] as const;
export const testTokenAbi = testTokenArtifact.abi;
export const callTargetAbi = callTargetArtifact.abi;
export const wrappedNativeAbi = wrappedNativeArtifact.abi;
