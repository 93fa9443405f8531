import { describe, expect, it } from "vitest";
import { z } from "zod";
import { openapiDocument } from "./openapiDocument.js";

/** The v2 record schema as /openapi.json publishes it under `path`, read back into a validator. */
function published(path: "/requests/v2" | "/requests") {
  const document = JSON.parse(JSON.stringify(openapiDocument()));
  return z.fromJSONSchema(
    document.paths[path].get.responses["200"].content["application/json"].schema.properties.requests.items,
  );
}

const eth = {
  chainId: 31338,
  address: `0x${"00".repeat(20)}`,
  symbol: "ETH",
  name: "Ether",
  decimals: 18,
  metadata: { logoURI: "", verified: true, isNative: true },
};
const amount = {
  currency: eth,
  amount: "1000",
  amountFormatted: "0.000000000000001",
  amountUsd: "0",
  minimumAmount: "1000",
};
const tx = {
  hash: `0x${"ab".repeat(32)}`,
  fee: "21000",
  block: 4,
  type: "onchain",
  chainId: 31338,
  timestamp: 90,
  data: {},
  stateChanges: [],
};
const side = { amount: "0", address: null, chainId: 31338 };
const record = (data: Record<string, unknown> = {}, root: Record<string, unknown> = {}) => ({
  id: `0x${"01".repeat(32)}`,
  status: "pending",
  user: "0x02",
  recipient: "0x02",
  depositAddress: null,
  partnerId: null,
  referrer: null,
  data: {
    slippageTolerance: "50",
    failReason: "N/A",
    refundFailReason: "N/A",
    supersededByRequestId: null,
    failedTxHash: null,
    failedTxBlockNumber: null,
    failedCallData: null,
    subsidizedRequest: false,
    fees: { gas: "1", fixed: "0", price: "0", gateway: "2" },
    feesUsd: { gas: "0.01", fixed: "0", price: "0", gateway: "0.02" },
    inTxs: [{ ...tx, currency: "eth", currencyObject: eth, feeCurrency: "eth", feeCurrencyObject: eth }],
    currency: "eth",
    currencyObject: eth,
    feeCurrency: "eth",
    feeCurrencyObject: eth,
    appFeeCurrencyObject: eth,
    refundCurrencyData: null,
    appFees: [],
    paidAppFees: [],
    subsidizedFee: { origin: side, sponsor: side, amountUsd: "0", amountUsdCurrent: "0" },
    expandedPriceImpact: { quoted: null, actual: null },
    feeSponsorship: null,
    outTxs: [],
    price: "1",
    usesExternalLiquidity: false,
    timeEstimate: 12,
    metadata: {
      sender: "0x02",
      recipient: "0x02",
      currencyIn: amount,
      currencyOut: amount,
      rate: "1",
      route: {},
      currencyGasTopup: null,
    },
    ...data,
  },
  protocol: { orderId: `0x${"03".repeat(32)}`, hubType: "onchain" },
  createdAt: "2026-11-28T12:00:00.000Z",
  updatedAt: "2026-11-28T12:00:01.000Z",
  ...root,
});

describe("the v2 record schema of /openapi.json (GET /requests/v2 and the deprecated GET /requests)", () => {
  it("takes the v2 record the spec lists, on both paths", () => {
    for (const path of ["/requests/v2", "/requests"] as const) {
      const schema = published(path);
      expect(schema.safeParse(record()).success).toBe(true);
      expect(
        schema.safeParse(
          record(
            { outTxs: [tx] },
            { status: "success", protocol: { orderId: "0x03", hubType: "onchain", orderData: {} } },
          ),
        ).success,
      ).toBe(true);
    }
  });

  it("refuses what a v2 record never is: v3's names and values, wei that is not an integer, a missing field", () => {
    const schema = published("/requests/v2");
    for (const [wrong, data, root] of [
      ["v3's submitted status", {}, { status: "submitted" }],
      ["v3's null failReason", { failReason: null }, {}],
      ["v3's txHash for hash", { outTxs: [{ ...tx, hash: undefined, txHash: tx.hash }] }, {}],
      ["wei with decimals", { fees: { gas: "0.1", fixed: "0", price: "0", gateway: "0" } }, {}],
      ["an unknown fee key", { fees: { gas: "1", fixed: "0", price: "0", gateway: "0", relay: "0" } }, {}],
      ["a deposit without its currency", { inTxs: [tx] }, {}],
      ["no metadata", { metadata: undefined }, {}],
      [
        "a depositAddress type v3 spells",
        {},
        { depositAddress: { address: "a", type: "strict", depositor: null, depositTxHash: null } },
      ],
    ] as const)
      expect(schema.safeParse(record(data, root)).success, wrong).toBe(false);
  });
});
