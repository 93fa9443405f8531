import type { ChainRoles } from "../adapter.js";
import type { SvmChainConfig } from "./svmChainFamily.js";
import { createSvmAdapter } from "./createSvmAdapter.js";

/** Solana's roles today: quotes, deposits and refunds (which wait for an operator); no solver (no fills to Solana). */
export function svmRoles(chain: SvmChainConfig): ChainRoles {
  const adapter = createSvmAdapter(chain);
  return { quoter: adapter, deposits: adapter, refunder: adapter };
}
