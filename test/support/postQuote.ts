import { zeroAddress } from "viem";
import { BITCOIN_NATIVE_CURRENCY } from "../../src/chains/bitcoin/bitcoinFamily.js";
import { route } from "./route.js";
import type { TestStack } from "./startTestStack.js";

/** POST /quote/v2 (with `apiKey` as x-api-key, when given) and the parsed answer, whatever its status. */
export async function postQuote(
  apiUrl: string,
  body: unknown,
  apiKey?: string,
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${apiUrl}/quote/v2`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(apiKey ? { "x-api-key": apiKey } : {}) },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

/** POST /quote/v2 for an exact-input native bridge by `user` from origin to destination, with any further fields. */
export function postBridgeQuote(
  apiUrl: string,
  user: { address: string },
  chains: { origin: { id: number }; destination: { id: number } },
  amount: bigint,
  extra: Record<string, unknown> = {},
): Promise<{ status: number; body: any }> {
  return postQuote(apiUrl, {
    user: user.address,
    ...route(chains.origin, chains.destination),
    amount: amount.toString(),
    tradeType: "EXACT_INPUT",
    ...extra,
  });
}

/** POST /quote/v2 for an exact-input BTC → native bridge from the stack's devnet Bitcoin to its first EVM chain. */
export function postBitcoinQuote(
  stack: Pick<TestStack, "api" | "bitcoin" | "devnet">,
  user: string,
  amount: bigint | string,
  extra: Record<string, unknown> & { recipient: string },
  apiKey?: string,
): Promise<{ status: number; body: any }> {
  return postQuote(
    stack.api.url,
    {
      user,
      originChainId: stack.bitcoin!.chain.id,
      destinationChainId: stack.devnet.chains[0].id,
      originCurrency: BITCOIN_NATIVE_CURRENCY,
      destinationCurrency: zeroAddress,
      amount: amount.toString(),
      tradeType: "EXACT_INPUT",
      ...extra,
    },
    apiKey,
  );
}
