import type { NativeConversion } from "../../domain/nativeConversion.js";
import type { FeeOperation } from "../adapter.js";
import { GAS_ESTIMATES } from "./gasEstimates.js";

const BASE = {
  deposit: (native: boolean) => (native ? GAS_ESTIMATES.depositNative : GAS_ESTIMATES.depositErc20),
  fill: (native: boolean) => (native ? GAS_ESTIMATES.fillNative : GAS_ESTIMATES.fillErc20),
  refund: (native: boolean) => (native ? GAS_ESTIMATES.withdrawNative : GAS_ESTIMATES.withdrawErc20),
};

/**
 * The gas units a quote (or a refund's fee) charges for an operation: its base, a wrap's or unwrap's in place of a
 * fill's, and `perCall` for each destination call. Also the most a solver transaction of it may use: the recipient,
 * a call target and a refundee are the user's to choose, and one that burns gas must not burn the solver's.
 */
export function quotedGasUnits(
  operation: FeeOperation,
  native: boolean,
  callCount = 0,
  conversion?: NativeConversion,
): bigint {
  const converting = operation === "fill" ? conversion : undefined;
  const base =
    converting === undefined
      ? BASE[operation](native)
      : converting === "wrap"
        ? GAS_ESTIMATES.fillWrap
        : GAS_ESTIMATES.fillUnwrap;
  return base + (operation === "fill" ? GAS_ESTIMATES.perCall * BigInt(callCount) : 0n);
}
