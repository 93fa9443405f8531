import type { ChainAdapter, ChainRoles } from "./adapter.js";

/** The roles of an adapter that is one object playing all of them. */
export function everyRole(adapter: ChainAdapter): ChainRoles {
  return { quoter: adapter, deposits: adapter, solver: adapter, refunder: adapter };
}
