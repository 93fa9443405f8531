import { zeroAddress } from "viem";
import type { DevnetChains } from "../../devnet/startDevnetChains.js";
import { route } from "./route.js";

/** An exact-input quote of 0.1 ETH on the devnet's first chain into USDC on its second: its rate is the feeds' ratio. */
export function ethToUsdcQuoteBody(devnet: DevnetChains): Record<string, unknown> {
  const [origin, destination] = devnet.chains;
  const usdc = destination!.currencies.find((currency) => currency.symbol === "USDC")!.address;
  return {
    user: devnet.accounts[0]!.address,
    ...route(origin!, destination!, zeroAddress, usdc),
    amount: "100000000000000000",
    tradeType: "EXACT_INPUT",
  };
}
