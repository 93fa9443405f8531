export type HermesControlPath = "/devnet/price" | "/devnet/freeze";
export type HermesControlPayload = { symbol: string; usd: number } | { symbol: string; frozen: boolean };

/**
 * Posts to the devnet Hermes' control routes: `/devnet/price {symbol, usd}` sets a feed's price, `/devnet/freeze
 * {symbol, frozen}` stops or restarts its publishing (and its aggregators' rounds). Throws unless it answers 200.
 */
export async function devnetHermesControl(
  hermesUrl: string,
  path: HermesControlPath,
  payload: HermesControlPayload,
): Promise<void> {
  const response = await fetch(`${hermesUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(payload),
  });
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
}
