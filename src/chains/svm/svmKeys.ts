import { z } from "zod";
import { decodeBase58 } from "./svmFamily.js";

const secretKey = z
  .string()
  .refine((value) => decodeBase58(value, 64) !== undefined, "expected a base58 64-byte Solana secret key")
  .optional();

/**
 * Solana's keys, read from the environment once (src/config.ts parseFamilyKeys) under the operators' variable names:
 * base58 of the 64-byte ed25519 secret key, what Solana wallets export. Which role holds them is the family's
 * factories' word (apps/families/svmFactories.ts): the worker only.
 */
export const svmKeySchema = z
  .object({
    /** The solver wallet's key (the chain's `solver` address): it would pay EVM → Solana fills. */
    SOLANA_SOLVER_SECRET_KEY: secretKey,
    /** The depository's key (the chain's `depository` address): refunds of Solana deposits are paid with it. */
    SOLANA_DEPOSITORY_SECRET_KEY: secretKey,
  })
  .transform((env) => ({
    solverSecretKey: env.SOLANA_SOLVER_SECRET_KEY,
    depositorySecretKey: env.SOLANA_DEPOSITORY_SECRET_KEY,
  }));

export type SvmKeys = z.output<typeof svmKeySchema>;
