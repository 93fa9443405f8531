/** One `latestRoundData` answer of a Chainlink-style aggregator, with the aggregator's `decimals`. */
export type AggregatorRound = {
  roundId: bigint;
  answer: bigint;
  /** Unix seconds. */
  updatedAt: bigint;
  answeredInRound: bigint;
  decimals: number;
};

/** Reads an aggregator's latest round (the EVM adapter's client does; pricing holds no chain SDK). */
export type ReadAggregatorRound = (address: string, signal: AbortSignal) => Promise<AggregatorRound>;
