import { z } from "zod";

/** The EVM family's key, read from the environment once (src/config.ts parseFamilyKeys) under its operators' name. */
export const evmKeySchema = z
  .object({
    /** The solver's key on every EVM chain: it signs orders, fills, refunds and approvals (required outside `dev`). */
    SOLVER_PRIVATE_KEY: z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/, "expected a 32-byte hex private key")
      .optional(),
  })
  .transform((env) => ({ solverPrivateKey: env.SOLVER_PRIVATE_KEY }));

export type EvmKeys = z.output<typeof evmKeySchema>;
