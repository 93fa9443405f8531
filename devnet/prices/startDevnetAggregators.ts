import type { Address, Hex } from "viem";
import { devnetAggregatorArtifact } from "../../contracts/artifacts.js";
import { devnetWalletClient } from "../devnetWalletClient.js";
import { aggregatorRoundPoster } from "./aggregatorRoundPoster.js";
import { DEVNET_PRICE_EXPO, type DevnetPriceBook } from "./devnetPriceBook.js";

export type DevnetAggregators = {
  /** Symbol → its DevnetAggregator on the chain. */
  aggregators: Readonly<Record<string, Address>>;
  stop(): Promise<void>;
};

/**
 * The devnet's second price source on one anvil chain: a DevnetAggregator per feed of the book (8 decimals, as the
 * book's), deployed by the price service's own account, and a poster that posts a round for each feed published
 * since its last every `periodMs` (default 3 s). A frozen feed publishes nothing, so its aggregator goes stale too.
 */
export async function startDevnetAggregators(options: {
  book: DevnetPriceBook;
  chain: { id: number; rpcUrl: string };
  ownerPrivateKey: Hex;
  periodMs?: number;
  onError?: (error: unknown) => void;
}): Promise<DevnetAggregators> {
  const owner = devnetWalletClient({
    rpcUrl: options.chain.rpcUrl,
    chainId: options.chain.id,
    privateKey: options.ownerPrivateKey,
  });
  const aggregators: Record<string, Address> = {};
  // One after another: one sender's nonces.
  for (const feed of options.book.feeds()) {
    const hash = await owner.deployContract({ ...devnetAggregatorArtifact, args: [-DEVNET_PRICE_EXPO] });
    aggregators[feed.symbol] = (await owner.waitForTransactionReceipt({ hash })).contractAddress as Address;
  }
  const poster = aggregatorRoundPoster({ book: options.book, owner, aggregators });
  await poster.post();
  let pass: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    // A pass still waiting for its blocks is not overlapped: the next one posts whatever it left.
    pass ??= poster
      .post()
      .catch((error) => options.onError?.(error))
      .finally(() => (pass = undefined));
  }, options.periodMs ?? 3_000);
  timer.unref();
  return {
    aggregators,
    async stop() {
      clearInterval(timer);
      await pass;
    },
  };
}
