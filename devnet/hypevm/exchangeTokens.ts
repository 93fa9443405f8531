import { keccak256, stringToHex, type Hex } from "viem";

/** A spot token of the devnet exchange, as `spotMeta` lists it. */
export type ExchangeToken = { name: string; index: number; tokenId: Hex; szDecimals: number; weiDecimals: number };

/** Devnet token ids: 16 bytes derived from the name, so they are stable across starts and never a real token's. */
const tokenId = (name: string): Hex =>
  keccak256(stringToHex(`crossfill devnet exchange token ${name}`)).slice(0, 34) as Hex;

/** USDC (index 0, the quote token and the perps collateral) and one more spot token. */
export const devnetExchangeTokens: ExchangeToken[] = [
  { name: "USDC", index: 0, tokenId: tokenId("USDC"), szDecimals: 8, weiDecimals: 8 },
  { name: "HYPE", index: 1, tokenId: tokenId("HYPE"), szDecimals: 2, weiDecimals: 8 },
];

/** Perps USDC: 8 decimals, the unit `usdSend` and the perps side of `sendAsset` move. */
export const PERPS_USDC_DECIMALS = 8;

/**
 * Finds the token an action names as `NAME:0x<tokenId>` (the exchange's form): both parts must match one token, so
 * a name with another token's id is refused.
 */
export function tokenOfSpec(tokens: readonly ExchangeToken[], spec: string): ExchangeToken | undefined {
  const [name, id, ...rest] = spec.split(":");
  if (rest.length > 0 || !id) return undefined;
  return tokens.find((t) => t.name === name && t.tokenId === id.toLowerCase());
}

/** How actions name a token. */
export const tokenSpec = (token: ExchangeToken) => `${token.name}:${token.tokenId}`;
