import type { ChainAvailabilityReader } from "../chains/createChainAvailability.js";
import type { ChainConfig } from "../chains/chainConfig.js";
import { InvalidInputError } from "../domain/errors.js";
import { formatAmount, parseDecimal } from "../domain/money.js";

/**
 * Refuses a quote touching a chain the operator disabled (before anything is priced: a disabled chain's RPC may
 * be the incident) and, given the quote's USD value, one above a partly disabled chain's limit.
 */
export async function assertChainsOpen(
  availability: ChainAvailabilityReader,
  chains: readonly ChainConfig[],
  usdValueE18?: bigint,
): Promise<void> {
  for (const chain of chains) {
    const state = await availability(chain);
    if (state.disabled) {
      throw new InvalidInputError(
        "CHAIN_DISABLED",
        `chain ${chain.id} (${chain.name}) is disabled and takes no new requests${state.reason ? `: ${state.reason}` : ""}`,
      );
    }
    if (usdValueE18 === undefined || state.partialDisableLimitUsd === null) continue;
    const limitE18 = parseDecimal(state.partialDisableLimitUsd, 18);
    if (usdValueE18 > limitE18) {
      throw new InvalidInputError(
        "AMOUNT_TOO_HIGH",
        `chain ${chain.id} (${chain.name}) takes quotes up to ${state.partialDisableLimitUsd} USD for now; this one is ${formatAmount(usdValueE18, 18)} USD`,
      );
    }
  }
}
