import { anyAddressKey, anyTransactionHash } from "../../chains/vmFamilies.js";
import { InvalidInputError } from "../../domain/errors.js";
import { FAIL_REASONS, REFUND_FAIL_REASONS } from "../../domain/failReasons.js";
import type { FieldKey } from "../../../schema/requestFilter.js";

export const LISTABLE_STATUSES = ["success", "failure", "refund", "pending", "depositing"] as const;
export const REQUEST_TYPES = [
  "Bridge",
  "Crosschain Swap",
  "Same-chain Swap",
  "Send",
  "Wrap",
  "Unwrap",
  "Call",
] as const;
export const FEATURES = [
  "gasless_execution",
  "fast_fill",
  "gas_top_up",
  "app_fees",
  "deposit_address",
  "sponsored",
] as const;

const HASH = /^0x[0-9a-fA-F]{64}$/;

function bad(parameter: string, message: string): never {
  throw new InvalidInputError("INVALID_INPUT", `${parameter}: ${message}`);
}

/** Postgres text cannot hold NUL, and no search value needs any control character. */
export const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f]*$/;
/** 9999-12-31T23:59:59Z: the last second Postgres timestamps (and ISO 8601 years) take. */
export const MAX_UNIX_SECONDS = 253_402_300_799;

function text(parameter: string, value: unknown): string {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value !== "string") bad(parameter, "expected a string");
  const trimmed = value.trim();
  if (trimmed === "") bad(parameter, "must not be empty");
  if (trimmed.length > 200) bad(parameter, "is too long");
  if (!NO_CONTROL_CHARACTERS.test(trimmed)) bad(parameter, "must not contain control characters");
  return trimmed;
}

function oneOf(parameter: string, value: unknown, allowed: readonly string[], caseInsensitive = false): string {
  const given = text(parameter, value);
  const found = allowed.find((option) =>
    caseInsensitive ? option.toLowerCase() === given.toLowerCase() : option === given,
  );
  if (!found) bad(parameter, `must be one of ${allowed.join(", ")}`);
  return found;
}

/** A filter's address belongs to no one chain: any chain family's address, in the form that family compares by. */
export function normaliseAddress(parameter: string, value: unknown): string {
  return anyAddressKey(text(parameter, value)) ?? bad(parameter, "must be an address");
}

export function normaliseHash(parameter: string, value: unknown): string {
  const given = text(parameter, value);
  if (!HASH.test(given)) bad(parameter, "must be a 32-byte hex string");
  return given.toLowerCase();
}

/** A transaction hash of any chain family (an EVM hash, a Bitcoin txid), in that family's canonical form. */
export function normaliseTransactionHash(parameter: string, value: unknown): string {
  return anyTransactionHash(text(parameter, value)) ?? bad(parameter, "must be a 32-byte hex string");
}

export function chainIdValue(parameter: string, value: unknown): number {
  const number =
    typeof value === "number"
      ? value
      : typeof value === "string" && /^\d+$/.test(value.trim())
        ? Number(value)
        : Number.NaN;
  if (!Number.isSafeInteger(number) || number <= 0) bad(parameter, "must be a positive integer chain id");
  return number;
}

/** Validates and normalises one value of a field; `parameter` names it in the 400 message. */
export function fieldValue(
  field: FieldKey,
  parameter: string,
  value: unknown,
  statuses: readonly string[] = LISTABLE_STATUSES,
): string | number {
  switch (field) {
    case "id":
    case "orderId":
      return normaliseHash(parameter, value);
    case "depositTxHash":
    case "fillTxHash":
    case "refundTxHash":
      return normaliseTransactionHash(parameter, value);
    case "user":
    case "recipient":
    case "depositAddress":
    case "currencyInAddress":
    case "currencyOutAddress":
      return normaliseAddress(parameter, value);
    case "originChainId":
    case "destinationChainId":
    case "chainId":
    case "currencyInChainId":
    case "currencyOutChainId":
      return chainIdValue(parameter, value);
    case "status":
      return oneOf(parameter, value, statuses);
    case "failReason":
      return oneOf(parameter, value, FAIL_REASONS);
    case "refundFailReason":
      return oneOf(parameter, value, REFUND_FAIL_REASONS);
    case "requestType":
      return oneOf(parameter, value, REQUEST_TYPES, true);
    case "currencyInSymbol":
    case "currencyOutSymbol":
      return text(parameter, value).toUpperCase();
    case "apiKey":
    case "referrer":
      return text(parameter, value);
  }
}
