import { getAddress } from "viem";
import { formatAmount } from "../../domain/money.js";
import { PERPS_USDC_CURRENCY, parseCurrencyId, subExchangeOf } from "./hypevmFamily.js";

/** A `sendAsset` action as the exchange takes it (before its signature). */
export type SendAssetAction = {
  type: "sendAsset";
  signatureChainId: string;
  hyperliquidChain: "Mainnet" | "Testnet";
  destination: string;
  sourceDex: string;
  destinationDex: string;
  token: string;
  amount: string;
  fromSubAccount: string;
  nonce: number;
};

/** The chain's configured spot currencies: symbol (the exchange's token name), token id, decimals. */
type SpotCurrency = { symbol: string; address: string; decimals: number };

/**
 * The `sendAsset` that pays `amount` of a currency of chain 1337 (by its id: perps USDC, a spot token, or a spot token
 * on a sub-exchange) from the signer's account on the same dex to `recipient` — the solver's deposit to the
 * exchange. Perps USDC is named by spot USDC's token (`USDC:<id>`), as the exchange does. Undefined for a currency
 * the chain does not list.
 */
export function sendAssetTo(input: {
  recipient: string;
  currency: string;
  amount: bigint;
  currencies: readonly SpotCurrency[];
  network: "Mainnet" | "Testnet";
  nonce: number;
  /** The chain the signature names (any: the exchange takes the domain from the action). */
  signatureChainId: number;
}): SendAssetAction | undefined {
  const id = parseCurrencyId(input.currency);
  if (id === undefined) return undefined;
  const perps = id === PERPS_USDC_CURRENCY;
  const tokenId = perps ? undefined : id.slice(0, 34);
  const token = input.currencies.find((c) => {
    const own = parseCurrencyId(c.address);
    return perps ? c.symbol === "USDC" && own !== PERPS_USDC_CURRENCY : own === tokenId;
  });
  if (!token) return undefined;
  const dex = perps ? "" : subExchangeOf(id) || "spot";
  return {
    type: "sendAsset",
    signatureChainId: `0x${input.signatureChainId.toString(16)}`,
    hyperliquidChain: input.network,
    // Strings are signed as sent: addresses in lower case, as the exchange's SDKs write them.
    destination: getAddress(input.recipient).toLowerCase(),
    sourceDex: dex,
    destinationDex: dex,
    token: `${token.symbol}:${parseCurrencyId(token.address)!.slice(0, 34)}`,
    amount: formatAmount(input.amount, perps ? 8 : token.decimals),
    fromSubAccount: "",
    nonce: input.nonce,
  };
}
