import { describe, expect, it } from "vitest";
import { z } from "zod";
import { openapiDocument } from "./openapiDocument.js";

/** The record schema as /openapi.json publishes it, read back into a validator. */
function published() {
  const document = JSON.parse(JSON.stringify(openapiDocument()));
  return z.fromJSONSchema(
    document.paths["/requests/v3"].get.responses["200"].content["application/json"].schema.properties.requests.items,
  );
}

const tx = (overrides: Record<string, unknown> = {}) => ({
  txHash: `0x${"ab".repeat(32)}`,
  fee: "21000",
  block: 12,
  type: "onchain",
  chainId: 31339,
  timestamp: 1_795_000_000,
  status: "success",
  data: { to: "0x01", amount: "5" },
  stateChanges: [],
  ...overrides,
});
const record = (settlement: Record<string, unknown>, overrides: Record<string, unknown> = {}) => ({
  id: `0x${"01".repeat(32)}`,
  status: "refund",
  user: "0x02",
  data: { failReason: "EXECUTION_REVERTED", refundFailReason: null, inTxs: [tx()], outTxs: [], fees: {} },
  protocol: { orderId: `0x${"03".repeat(32)}`, hubType: "onchain", settlement: { destination: settlement } },
  createdAt: "2026-11-28T12:00:00.000Z",
  updatedAt: "2026-11-28T12:00:01.000Z",
  ...overrides,
});

describe("the v3 record schema of /openapi.json", () => {
  const schema = published();
  const fill = { chainId: 31339, transactionId: `0x${"cd".repeat(32)}` };

  it("takes fills and refunds as {chainId, transactionId}, and fields it leaves open", () => {
    expect(schema.safeParse(record({ fills: [], refunds: [{ ...fill, chainId: 31338 }] })).success).toBe(true);
    const succeeded = record(
      { fills: [fill], refunds: [] },
      { status: "success", data: { failReason: null, refundFailReason: null, inTxs: [tx()], outTxs: [tx()] } },
    );
    expect(schema.safeParse(succeeded).success).toBe(true);
    const provisional = tx({ metadata: { confirmedBy: "receipt" } });
    expect(schema.safeParse({ ...succeeded, data: { ...succeeded.data, outTxs: [provisional] } }).success).toBe(true);
  });

  it("refuses a settlement entry or transaction that is not what the record returns", () => {
    for (const wrong of [
      { fills: [{ ...fill, chainId: "31339" }], refunds: [] },
      { fills: [{ chainId: 31339 }], refunds: [] },
      { fills: [{ ...fill, txHash: fill.transactionId }], refunds: [] },
      { fills: [] },
    ])
      expect(schema.safeParse(record(wrong)).success, JSON.stringify(wrong)).toBe(false);
    const settlement = { fills: [], refunds: [] };
    for (const data of [
      { failReason: null, refundFailReason: null, inTxs: [tx({ fee: "-1" })], outTxs: [] },
      { failReason: null, refundFailReason: null, inTxs: [tx({ status: "pending" })], outTxs: [] },
      { failReason: null, refundFailReason: null, inTxs: [], outTxs: [tx({ metadata: { confirmedBy: "index" } })] },
    ])
      expect(schema.safeParse(record(settlement, { data })).success, JSON.stringify(data)).toBe(false);
    expect(schema.safeParse(record(settlement, { status: "delayed" })).success).toBe(false);
    expect(schema.safeParse(record(settlement, { createdAt: "yesterday" })).success).toBe(false);
  });
});
