import { z } from "zod";

const privateKey = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, "expected a 32-byte hex private key")
  .optional();

/**
 * The perps exchange's keys, read from the environment once (src/config.ts parseFamilyKeys) under the operators'
 * variable names: the EVM keys of the chain's exchange accounts. Only the worker holds them
 * (apps/families/hypevmFactories.ts).
 */
export const hypevmKeySchema = z
  .object({
    /** The key of the chain's `solver` account: it signs the transfers that pay deposits to the exchange. */
    PERPS_SOLVER_PRIVATE_KEY: privateKey,
    /** The key of the chain's `depository` account: it signs the refunds of withdrawals from the exchange. */
    PERPS_DEPOSITORY_PRIVATE_KEY: privateKey,
  })
  .transform((env) => ({
    solverPrivateKey: env.PERPS_SOLVER_PRIVATE_KEY,
    depositoryPrivateKey: env.PERPS_DEPOSITORY_PRIVATE_KEY,
  }));

export type HypevmKeys = z.output<typeof hypevmKeySchema>;
