import type { LedgerUpdate, SpotToken } from "./exchangeApi.js";
import { parseExchangeAmount } from "./exchangeAmount.js";
import { PERPS_USDC_CURRENCY } from "./hypevmFamily.js";

/** Perps USDC moves at 8 decimals on the exchange's ledger. */
const PERPS_USDC_DECIMALS = 8;

/** A transfer between two accounts as the ledger shows it, in the service's terms. */
export type LedgerTransfer = {
  /** The signer (lower case) and the account paid (lower case). */
  sender: string;
  destination: string;
  /** The chain's currency id: perps USDC, a spot token's id, or one on a sub-exchange (its name's hex appended). */
  currency: string;
  /** Base units of the currency (8 decimals for perps USDC). */
  amount: bigint;
  /** The signed action's nonce; none for `internalTransfer` (a `usdSend`), whose ledger entry carries none. */
  nonce: bigint | undefined;
};

/**
 * What a ledger update moved from one account to another (`send`, `spotTransfer`, `internalTransfer`); undefined for
 * anything else, a zero amount, an unknown token, or an amount written with more decimals than its token has (no
 * transfer the service could account for).
 */
export function ledgerTransfer(update: LedgerUpdate, tokens: readonly SpotToken[]): LedgerTransfer | undefined {
  const { delta } = update;
  if (!["send", "spotTransfer", "internalTransfer"].includes(delta.type)) return undefined;
  const moved = movement(delta, tokens);
  if (!moved || moved.amount === undefined || moved.amount === 0n) return undefined;
  return {
    sender: String(delta.user).toLowerCase(),
    destination: String(delta.destination).toLowerCase(),
    currency: moved.currency,
    amount: moved.amount,
    nonce: typeof delta.nonce === "number" ? BigInt(delta.nonce) : undefined,
  };
}

function movement(delta: LedgerUpdate["delta"], tokens: readonly SpotToken[]) {
  if (delta.type === "internalTransfer")
    return { currency: PERPS_USDC_CURRENCY, amount: parseExchangeAmount(String(delta.usdc), PERPS_USDC_DECIMALS) };
  const dex = delta.type === "send" ? String(delta.destinationDex) : "spot";
  if (dex === "")
    return delta.token === "USDC"
      ? { currency: PERPS_USDC_CURRENCY, amount: parseExchangeAmount(String(delta.amount), PERPS_USDC_DECIMALS) }
      : undefined;
  const token = tokens.find((t) => t.name === delta.token);
  if (!token) return undefined;
  const suffix = dex === "spot" ? "" : Buffer.from(dex, "utf8").toString("hex");
  return {
    currency: `${token.tokenId.toLowerCase()}${suffix}`,
    amount: parseExchangeAmount(String(delta.amount), token.weiDecimals),
  };
}
