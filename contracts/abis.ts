// ABIs only, with literal types (Ponder and viem infer event and function types from them).
import {
  callTargetArtifact,
  depositoryArtifact,
  receiverArtifact,
  testTokenArtifact,
  wrappedNativeArtifact,
} from "./artifacts.js";

export const depositoryAbi = depositoryArtifact.abi;
export const receiverAbi = receiverArtifact.abi;
export const testTokenAbi = testTokenArtifact.abi;
export const callTargetAbi = callTargetArtifact.abi;
export const wrappedNativeAbi = wrappedNativeArtifact.abi;
