import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { ChainRoles } from "../adapter.js";
import { createHypevmAdapter, type HypevmAdapterDeps } from "./createHypevmAdapter.js";
import type { HypevmChainConfig } from "./hypevmChainFamily.js";

/**
 * The perps exchange's roles: quotes, deposits (withdrawals from the exchange), refunds, and the solver where the
 * chain names a solver account (1337 as a destination). A key given for an account must be that account's.
 */
export function hypevmRoles(
  chain: HypevmChainConfig,
  keys: { solverPrivateKey?: Hex; depositoryPrivateKey?: Hex },
  orderOf: HypevmAdapterDeps["orderOf"],
  /** The stored fills and refunds a transfer indexed by hand is read against; without them it reads deposits only. */
  settlements: Pick<HypevmAdapterDeps, "fillOf" | "refundOf"> = {},
): ChainRoles {
  const deps: HypevmAdapterDeps = {
    orderOf,
    ...settlements,
    ...(keys.solverPrivateKey ? { solver: privateKeyToAccount(keys.solverPrivateKey) } : {}),
    ...(keys.depositoryPrivateKey ? { depository: privateKeyToAccount(keys.depositoryPrivateKey) } : {}),
  };
  for (const [role, account] of [
    ["solver", deps.solver],
    ["depository", deps.depository],
  ] as const)
    if (account && account.address.toLowerCase() !== chain[role]?.toLowerCase())
      throw new Error(`the ${role} key of chain ${chain.id} is ${account.address}'s, not its ${role} account's`);
  const adapter = createHypevmAdapter(chain, deps);
  return { quoter: adapter, deposits: adapter, refunder: adapter, ...(chain.solver ? { solver: adapter } : {}) };
}
