import { describe, expect, it } from "vitest";
import type { IntegratorRequest } from "./dashboardTypes";
import { requestsCsv } from "./requestsCsv";

describe("requestsCsv", () => {
  it("writes a header and one row per request, amounts and hashes included", () => {
    const request: IntegratorRequest = {
      id: "0xr",
      status: "success",
      createdAt: "2026-11-23T10:00:00.000Z",
      originChainId: 31338,
      destinationChainId: 31339,
      user: "0xu",
      recipient: "0xv",
      referrer: "acme, web",
      failReason: null,
      route: {
        actual: {
          origin: {
            inputCurrency: { amountFormatted: "0.1", amountUsd: "300", currency: { symbol: "ETH" } },
            outputCurrency: { amountFormatted: "0.1", currency: { symbol: "ETH" } },
          },
          destination: { outputCurrency: { amountFormatted: "0.0998", currency: { symbol: "ETH" } } },
        },
      },
      deposits: [{ txHash: "0xd1" }, { txHash: "0xd2" }],
      fills: [{ txHash: "0xf" }],
    };
    const [header, row, end] = requestsCsv([request]).split("\r\n");
    expect(header.split(",")).toHaveLength(16);
    expect(row).toBe(
      '0xr,success,2026-11-23T10:00:00.000Z,31338,31339,0.1,ETH,300,0.0998,ETH,0xu,0xv,"acme, web",,0xd1 0xd2,0xf',
    );
    expect(end).toBe("");
  });
});
