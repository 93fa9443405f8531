import type { Address } from "viem";
import { devnetAggregatorArtifact } from "../../contracts/artifacts.js";
import type { DevnetWalletClient } from "../devnetWalletClient.js";
import type { DevnetPriceBook } from "./devnetPriceBook.js";

/**
 * Feeds the devnet's aggregators (DevnetAggregator, deployed with the book's 8 decimals) from the price book, so the
 * on-chain source agrees with Hermes: each `post()` posts a round for every symbol published since its last round,
 * dated by the feed's publish time. A frozen feed publishes nothing, so its aggregators get no round and go stale too.
 */
export function aggregatorRoundPoster(options: {
  book: DevnetPriceBook;
  owner: DevnetWalletClient;
  /** Symbol → its aggregator on this chain. */
  aggregators: Readonly<Record<string, Address>>;
}) {
  const postedAt = new Map<string, number>();
  return {
    /** One pass; resolves with the symbols it posted a round for, once their transactions are mined. */
    async post(): Promise<string[]> {
      const due = Object.entries(options.aggregators).flatMap(([symbol, address]) => {
        const feed = options.book.feed(symbol);
        return feed && feed.publishTime !== postedAt.get(symbol) ? [{ symbol, address, feed }] : [];
      });
      // Sequential: one sender's nonces.
      for (const { address, feed } of due) {
        const hash = await options.owner.writeContract({
          address,
          abi: devnetAggregatorArtifact.abi,
          functionName: "postRound",
          args: [feed.price, BigInt(feed.publishTime)],
        });
        await options.owner.waitForTransactionReceipt({ hash });
      }
      for (const { symbol, feed } of due) postedAt.set(symbol, feed.publishTime);
      return due.map(({ symbol }) => symbol);
    },
  };
}
