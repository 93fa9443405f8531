import type { AppliedDeposit } from "../schema/requestDeposits.js";
import type { DepositCheck, DepositPort } from "../src/chains/adapter.js";
import type { ChainRegistry } from "../src/chains/chainRegistry.js";
import type { PriceSource } from "../src/pricing/priceSource.js";
import { requiredDepositConfirmations } from "./requiredDepositConfirmations.js";

/** Whether a deposit may be filled: its chain's finality rule for its USD value, then the node's word on it. */
export async function checkDeposit(
  deposit: AppliedDeposit,
  deps: { deposits: DepositPort; registry: ChainRegistry; prices: PriceSource },
): Promise<DepositCheck> {
  return deps.deposits.checkDeposit(deposit, await requiredDepositConfirmations(deposit, deps));
}
