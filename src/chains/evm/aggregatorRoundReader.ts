import { type Address, type PublicClient, getAddress, parseAbi } from "viem";
import type { ReadAggregatorRound } from "../../pricing/aggregator/aggregatorRound.js";

/** The AggregatorV3Interface subset the price layer reads: Chainlink's feeds and the devnet's DevnetAggregator. */
const aggregatorV3Abi = parseAbi([
  "function decimals() view returns (uint8)",
  "function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)",
]);

/**
 * Reads aggregators over the chain's public client for the price layer. `decimals` never changes for a deployed
 * aggregator, so it is read once per address; `latestRoundData` is read on every call.
 */
export function aggregatorRoundReader(client: Pick<PublicClient, "readContract">): ReadAggregatorRound {
  const decimalsOf = new Map<Address, Promise<number>>();
  return async (address) => {
    const aggregator = getAddress(address);
    let decimals = decimalsOf.get(aggregator);
    if (!decimals) {
      decimals = client.readContract({ address: aggregator, abi: aggregatorV3Abi, functionName: "decimals" });
      decimalsOf.set(aggregator, decimals);
      decimals.catch(() => decimalsOf.delete(aggregator));
    }
    const [[roundId, answer, , updatedAt, answeredInRound], resolvedDecimals] = await Promise.all([
      client.readContract({ address: aggregator, abi: aggregatorV3Abi, functionName: "latestRoundData" }),
      decimals,
    ]);
    return { roundId, answer, updatedAt, answeredInRound, decimals: resolvedDecimals };
  };
}
