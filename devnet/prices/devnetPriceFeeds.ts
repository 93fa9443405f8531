/**
 * The feeds the devnet's Hermes serves: Pyth's real feed ids for these symbols (so a chains file and PYTH_FEED_IDS
 * written for the devnet read the same as for production), starting at made-up prices, 8 decimals as Pyth's crypto
 * feeds have.
 */
export const DEVNET_PRICE_FEEDS = [
  { symbol: "ETH", id: "ff61491a931112ddf1bd8147cd1b641375f79f5825126d665480874634fd0ace", usd: "3000" },
  { symbol: "BTC", id: "e62df6c8b4a85fe1a67db44dc12de5db330f7ac66b72dc658afedf0f4a415b43", usd: "60000" },
  { symbol: "SOL", id: "ef0d8b6fda2ceba41da15d4095d1da392a0d2f8ed0c6c7bc0f4cfac8c280b56d", usd: "150" },
  { symbol: "TON", id: "8963217838ab4cf5cadc172203c1f0b763fbaa45f346d8ee50ba994bbcac3026", usd: "5" },
  { symbol: "USDC", id: "eaa020c61cc479712813461ce153894a96a6c00b21ed0cfc2798d1f9a9e9c94a", usd: "1" },
  { symbol: "HYPE", id: "4279e31cc369bbcc2faf022b382b080e32a8e689ff20fbc530d2a603eb6cd98b", usd: "30" },
] as const;

/** Which feed prices each devnet symbol: wrapped ether is priced as ether. */
export const DEVNET_FEED_IDS: Readonly<Record<string, string>> = Object.freeze({
  ...Object.fromEntries(DEVNET_PRICE_FEEDS.map((feed) => [feed.symbol, `0x${feed.id}`])),
  WETH: `0x${DEVNET_PRICE_FEEDS[0].id}`,
});
