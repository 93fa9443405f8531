import { describe, expect, it } from "vitest";
import { transactionUrl } from "./transactionUrl";

const chain = (explorerUrl: string) => ({
  id: 1,
  displayName: "Chain",
  depository: "0x00000000000000000000000000000000000000d0",
  explorerUrl,
  explorerPaths: { transaction: "/tx/{TX_HASH}" },
});

describe("transactionUrl", () => {
  it("joins the explorer and its transaction path, and gives none without an explorer", () => {
    expect(transactionUrl(chain("https://scan.example/"), "0xab")).toBe("https://scan.example/tx/0xab");
    expect(transactionUrl(chain("https://scan.example"), "0xab")).toBe("https://scan.example/tx/0xab");
    expect(transactionUrl(chain(""), "0xab")).toBeUndefined();
    expect(transactionUrl(undefined, "0xab")).toBeUndefined();
  });

  it("puts the path before the explorer's query, where Solana's explorer names its cluster", () => {
    const signature = "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW";
    expect(transactionUrl(chain("https://explorer.solana.com/?cluster=devnet"), signature)).toBe(
      `https://explorer.solana.com/tx/${signature}?cluster=devnet`,
    );
    expect(
      transactionUrl(chain("https://solscan.io?cluster=custom&customUrl=http%3A%2F%2F127.0.0.1%3A8899"), signature),
    ).toBe(`https://solscan.io/tx/${signature}?cluster=custom&customUrl=http%3A%2F%2F127.0.0.1%3A8899`);
    expect(transactionUrl(chain("not a url"), signature)).toBeUndefined();
  });
});
