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
});
