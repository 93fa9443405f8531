import { Keypair } from "@solana/web3.js";
import type { ChainRoles } from "../adapter.js";
import type { SvmChainConfig } from "./svmChainFamily.js";
import { createSvmAdapter } from "./createSvmAdapter.js";
import { createSvmRefunder } from "./createSvmRefunder.js";
import { createSvmSolver } from "./createSvmSolver.js";
import { decodeBase58 } from "./svmFamily.js";

/** What a role's Solana adapters hold: the worker signs fills with the solver's key; the gateway holds none. */
export type SvmRoleKeys = { solverSecretKey?: string; depositorySecretKey?: string; signsFills?: boolean };

/**
 * Solana's roles: quotes, deposits, refunds (paid with SOLANA_DEPOSITORY_SECRET_KEY where the role holds it, else
 * left to an operator), and — on a chain with a `solver` wallet —
 * the solver's fills, signed with SOLANA_SOLVER_SECRET_KEY where the role signs fills (the worker, which cannot start
 * without it then); the gateway's solver holds no key (it names the route, never signs).
 */
export function svmRoles(chain: SvmChainConfig, keys: SvmRoleKeys = {}): ChainRoles {
  const adapter = createSvmAdapter(chain);
  const depositoryKey = keys.depositorySecretKey && decodeBase58(keys.depositorySecretKey, 64);
  const depository = depositoryKey ? Keypair.fromSecretKey(depositoryKey) : undefined;
  if (depository && depository.publicKey.toBase58() !== chain.depository)
    throw new Error(
      `SOLANA_DEPOSITORY_SECRET_KEY is not the key of chain ${chain.id}'s depository ${chain.depository}`,
    );
  const roles = { quoter: adapter, deposits: adapter, refunder: createSvmRefunder(chain, depository) };
  const { solver: solverAddress } = chain;
  if (!solverAddress) return roles;
  // The gateway offers the route (quotes to Solana) and signs nothing.
  if (!keys.signsFills) return { ...roles, solver: createSvmSolver({ ...chain, solver: solverAddress }) };
  const secret = keys.solverSecretKey && decodeBase58(keys.solverSecretKey, 64);
  if (!secret) throw new Error(`SOLANA_SOLVER_SECRET_KEY is required to pay fills on chain ${chain.id}`);
  const solver = Keypair.fromSecretKey(secret);
  if (solver.publicKey.toBase58() !== chain.solver)
    throw new Error(`SOLANA_SOLVER_SECRET_KEY is not the key of chain ${chain.id}'s solver ${chain.solver}`);
  return { ...roles, solver: createSvmSolver({ ...chain, solver: solverAddress }, solver) };
}
