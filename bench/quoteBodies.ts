import { type Address, zeroAddress } from "viem";

type Chain = { id: number; currencies: ReadonlyArray<{ symbol: string; address: string }> };

export type QuoteKind = "nativeBridge" | "erc20Bridge" | "swap";
export type QuoteBody = {
  user: Address;
  recipient: Address;
  originChainId: number;
  destinationChainId: number;
  originCurrency: Address;
  destinationCurrency: Address;
  amount: string;
  tradeType: "EXACT_INPUT" | "EXACT_OUTPUT";
};

function usdc(chain: Chain): Address {
  const currency = chain.currencies.find((c) => c.symbol === "USDC");
  if (!currency) throw new Error(`chain ${chain.id} has no USDC`);
  return currency.address as Address;
}

/**
 * One POST /quote/v2 body of each kind the benchmarks mix: a native bridge (ETH → ETH), an ERC-20 bridge
 * (USDC → USDC) and a cross-currency swap (ETH → USDC, exact output), from `user` on `origin` to `destination`.
 */
export function quoteBody(
  kind: QuoteKind,
  origin: Chain,
  destination: Chain,
  user: Address,
  recipient: Address = user,
): QuoteBody {
  const route = { user, recipient, originChainId: origin.id, destinationChainId: destination.id };
  switch (kind) {
    case "nativeBridge":
      return {
        ...route,
        originCurrency: zeroAddress,
        destinationCurrency: zeroAddress,
        amount: "10000000000000000",
        tradeType: "EXACT_INPUT",
      };
    case "erc20Bridge":
      return {
        ...route,
        originCurrency: usdc(origin),
        destinationCurrency: usdc(destination),
        amount: "25000000",
        tradeType: "EXACT_INPUT",
      };
    case "swap":
      return {
        ...route,
        originCurrency: zeroAddress,
        destinationCurrency: usdc(destination),
        amount: "20000000",
        tradeType: "EXACT_OUTPUT",
      };
  }
}

export const QUOTE_KINDS: readonly QuoteKind[] = ["nativeBridge", "erc20Bridge", "swap"];
