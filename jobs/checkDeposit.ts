import type { AppliedDeposit } from "../schema/requestDeposits.js";
import type { ChainAdapter, DepositCheck } from "../src/chains/adapter.js";
import type { ChainRegistry } from "../src/chains/chainRegistry.js";
import type { PriceSource } from "../src/pricing/priceSource.js";
import { requiredDepositConfirmations } from "./requiredDepositConfirmations.js";

/** Whether a deposit may be filled: its chain's finality rule for its USD value, then the node's word on it. */
export async function checkDeposit(
  deposit: AppliedDeposit,
  deps: { adapter: ChainAdapter; registry: ChainRegistry; prices: PriceSource },
): Promise<DepositCheck> {
  return deps.adapter.checkDeposit(deposit, await requiredDepositConfirmations(deposit, deps));
}
