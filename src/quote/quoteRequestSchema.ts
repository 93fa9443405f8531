import { z } from "zod";
import { FEE_COMPONENTS } from "../domain/sponsorFees.js";

const chainId = z.union([
  z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  z
    .string()
    .regex(/^\d{1,15}$/)
    .transform(Number),
]);
const integerString = z.string().regex(/^\d{1,78}$/, "must be a non-negative integer string in the smallest unit");
const hex = z.string().regex(/^0x([0-9a-fA-F]{2})*$/, "must be 0x-prefixed hex");

/** The body of POST /quote and /quote/v2 as the spec lists it; other fields are ignored, unless misspelledQuoteField refuses them. */
export const quoteRequestSchema = z.object({
  user: z.string().min(1).max(128),
  originChainId: chainId,
  destinationChainId: chainId,
  originCurrency: z.string().min(1).max(128),
  destinationCurrency: z.string().min(1).max(128),
  amount: integerString,
  tradeType: z.enum(["EXACT_INPUT", "EXACT_OUTPUT"]),
  recipient: z.string().min(1).max(128).optional(),
  refundTo: z.string().min(1).max(128).optional(),
  depositFeePayer: z.string().min(1).max(128).optional(),
  useDepositAddress: z.boolean().optional(),
  strict: z.boolean().optional(),
  txs: z
    .array(z.object({ to: z.string(), value: integerString.default("0"), data: hex.default("0x") }))
    .max(16)
    .optional(),
  protocolVersion: z.literal("v2", { error: 'the only protocol version is "v2"' }).optional(),
  includeProtocolData: z.boolean().optional(),
  // The old name of includeProtocolData (renamed 2026-07-02), still taken as it; both given must agree.
  includeProtocolSignature: z.boolean().optional(),
  // Crossfill does not top up destination gas: asking for it is refused rather than silently not done.
  topupGas: z
    .literal(false, { error: "Crossfill does not top up destination gas; leave topupGas unset or false" })
    .optional(),
  topupGasAmount: z
    .undefined({ error: "Crossfill does not top up destination gas; topupGasAmount is not taken" })
    .optional(),
  subsidizeFees: z.boolean().optional(),
  maxSubsidizationAmount: integerString.optional(),
  subsidizationBps: z.number().int().min(0).max(10_000).optional(),
  sponsoredFeeComponents: z.array(z.enum(FEE_COMPONENTS)).max(FEE_COMPONENTS.length).optional(),
  // Validated by hand below for the spec's own error code.
  slippageTolerance: z.unknown().optional(),
  latePaymentSlippageTolerance: z.unknown().optional(),
  referrer: z.string().max(256).optional(),
  // Validated by hand (parseAppFees) for messages naming the entry at fault.
  appFees: z.unknown().optional(),
});
