import { bitcoinChainFamily } from "./bitcoin/bitcoinChainFamily.js";
import { evmChainFamily } from "./evm/evmChainFamily.js";
import { hypevmChainFamily } from "./hypevm/hypevmChainFamily.js";
import { svmChainFamily } from "./svm/svmChainFamily.js";

/**
 * Every chain family Crossfill carries: the one place a family is registered. The chains file, `VmType`, the
 * registry, quote validation and the roles iterate it; a new family is one more entry.
 */
export const FAMILIES = [evmChainFamily, bitcoinChainFamily, svmChainFamily, hypevmChainFamily] as const;
