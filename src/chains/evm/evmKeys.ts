import { z } from "zod";

/** The EVM family's keys, read from the environment once (src/config.ts parseFamilyKeys) under its operators' names. */
export const evmKeySchema = z
  .object({
    /** The solver's key on every EVM chain: it signs fills, refunds, approvals and orders (the worker only). */
    SOLVER_PRIVATE_KEY: z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/, "expected a 32-byte hex private key")
      .optional(),
    /** The solver's address, all the gateway knows of it (orders name it; quotes read its balances). */
    SOLVER_ADDRESS: z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/, "expected a 20-byte hex address")
      .optional(),
    /** The worker's order signer service, which the gateway asks for each `orderSignature`. */
    ORDER_SIGNER_URL: z.string().url().optional(),
    /** The secret the gateway shows the order signer (and the worker's signer expects); 32 characters or more. */
    ORDER_SIGNER_TOKEN: z.string().min(32, "at least 32 characters").optional(),
  })
  .transform((env) => ({
    solverPrivateKey: env.SOLVER_PRIVATE_KEY,
    solverAddress: env.SOLVER_ADDRESS,
    orderSignerUrl: env.ORDER_SIGNER_URL,
    orderSignerToken: env.ORDER_SIGNER_TOKEN,
  }));

export type EvmKeys = z.output<typeof evmKeySchema>;
