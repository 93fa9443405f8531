import { isHash } from "viem";
import { evmFamily } from "../evm/evmFamily.js";
import type { VmFamily } from "../vmFamily.js";

/** Perps USDC, the exchange's collateral, is the all-zero 16-byte id (the spec's): the family's native currency. */
export const PERPS_USDC_CURRENCY = "0x00000000000000000000000000000000";

/**
 * A currency id of the exchange in lower case: a spot token's 16-byte token id, optionally followed by the hex of a
 * sub-exchange's name (its currencies there); undefined for anything else.
 */
export function parseCurrencyId(value: string): string | undefined {
  if (!/^0x[0-9a-fA-F]{32}(?:[0-9a-fA-F]{2})*$/.test(value)) return undefined;
  // 20 bytes is an account, never a currency: a token id followed by a 4-byte name would be ambiguous with it.
  if (value.length === 42) return undefined;
  return value.toLowerCase();
}

/** The sub-exchange a currency id names ("" for the main perps exchange and spot), decoded from its hex suffix. */
export function subExchangeOf(currencyId: string): string {
  return Buffer.from(currencyId.slice(34), "hex").toString("utf8");
}

/**
 * The perps exchange: accounts are 20-byte EVM addresses (shown checksummed, compared in lower case); currencies are
 * the exchange's ids (`parseCurrencyId`), which the codec also reads, since currencies and accounts share it here;
 * transaction hashes are the ledger's 32-byte hashes.
 */
export const hypevmFamily: VmFamily<"hypevm"> = {
  vmType: "hypevm",
  nativeCurrency: PERPS_USDC_CURRENCY,
  address: {
    parse: (value) => evmFamily.address.parse(value) ?? parseCurrencyId(value),
    key: (address) => address.toLowerCase(),
  },
  parseTransactionHash: (value) => (isHash(value) ? value.toLowerCase() : undefined),
};
