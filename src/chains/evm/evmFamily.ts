import { getAddress, isAddress, isHash, zeroAddress } from "viem";
import type { VmFamily } from "../vmFamily.js";

/** EVM chains: 20-byte hex addresses (any case, shown checksummed, compared in lower case), native currency at 0x0. */
export const evmFamily: VmFamily<"evm"> = {
  vmType: "evm",
  nativeCurrency: zeroAddress,
  address: {
    parse: (value) => (isAddress(value, { strict: false }) ? getAddress(value) : undefined),
    key: (address) => address.toLowerCase(),
  },
  parseTransactionHash: (value) => (isHash(value) ? value.toLowerCase() : undefined),
};
