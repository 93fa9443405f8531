import { InvalidInputError } from "../domain/errors.js";
import type { AppFee } from "../domain/splitAppFees.js";
import { VM_FAMILIES } from "../chains/vmFamilies.js";

/** Documented bounds (docs/API.md): more recipients, or a larger share, is a 400 rather than a silent cap. */
export const MAX_APP_FEE_RECIPIENTS = 10;
export const MAX_APP_FEE_BPS_TOTAL = 10_000n;

const BPS = /^\d{1,5}$/;

/**
 * The quote's `appFees` as the official client sends them (`[{recipient, fee}]`, fee in basis points as a string):
 * each recipient an EVM address (fees are claimed with an EIP-712 signature), each fee 1–10000, recipients
 * distinct, the total at most 10000. Undefined or empty: no app fee.
 */
export function parseAppFees(value: unknown): AppFee[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new InvalidInputError("INVALID_INPUT", "appFees must be an array");
  if (value.length > MAX_APP_FEE_RECIPIENTS)
    throw new InvalidInputError("INVALID_INPUT", `appFees: at most ${MAX_APP_FEE_RECIPIENTS} recipients`);
  const fees = value.map((entry: unknown, index): AppFee => {
    const { recipient, fee } = (entry ?? {}) as { recipient?: unknown; fee?: unknown };
    const parsed = typeof recipient === "string" ? VM_FAMILIES.evm.address.parse(recipient) : undefined;
    if (parsed === undefined)
      throw new InvalidInputError("INVALID_INPUT", `appFees[${index}].recipient must be an EVM address`);
    if (typeof fee !== "string" || !BPS.test(fee) || BigInt(fee) < 1n || BigInt(fee) > 10_000n) {
      throw new InvalidInputError(
        "INVALID_INPUT",
        `appFees[${index}].fee must be an integer string of basis points from 1 to 10000`,
      );
    }
    return { recipient: parsed, bps: BigInt(fee) };
  });
  const keys = new Set(fees.map((fee) => fee.recipient.toLowerCase()));
  if (keys.size !== fees.length) throw new InvalidInputError("INVALID_INPUT", "appFees: each recipient at most once");
  const total = fees.reduce((sum, fee) => sum + fee.bps, 0n);
  if (total > MAX_APP_FEE_BPS_TOTAL)
    throw new InvalidInputError("INVALID_INPUT", `appFees: the fees add up to ${total} bps, above 10000`);
  return fees;
}
