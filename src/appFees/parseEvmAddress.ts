import type { Address } from "viem";
import { evmFamily } from "../chains/evm/evmFamily.js";
import { InvalidInputError } from "../domain/errors.js";

/** App fees are earned and claimed by EVM wallets: an address input, checksummed, or a 400 naming the field. */
export function parseEvmAddress(value: string, field: string): Address {
  const parsed = evmFamily.address.parse(value);
  if (parsed === undefined) throw new InvalidInputError("INVALID_ADDRESS", `${field} must be an EVM address: ${value}`);
  return parsed as Address;
}
