import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUserSignedAction } from "./signUserSignedAction.js";
import { type DevnetExchange, startDevnetExchange } from "./startDevnetExchange.js";

describe("startDevnetExchange", () => {
  let exchange: DevnetExchange;
  beforeAll(async () => {
    exchange = await startDevnetExchange();
  });
  afterAll(() => exchange?.stop());

  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${exchange.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    return res.json();
  };

  it("funds the test accounts and the solver, and knows the depository", async () => {
    const [account] = exchange.accounts;
    expect(account!.address).toBe("0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
    expect(await post("/info", { type: "clearinghouseState", user: account!.address })).toMatchObject({
      withdrawable: "100000.0",
    });
    expect(await post("/info", { type: "clearinghouseState", user: exchange.solver.address })).toMatchObject({
      withdrawable: "10000000.0",
    });
    expect(await post("/info", { type: "spotClearinghouseState", user: account!.address })).toMatchObject({
      balances: [
        { coin: "USDC", total: "10000.0" },
        { coin: "HYPE", total: "1000.0" },
      ],
    });
    expect(new Set([exchange.solver.address, exchange.depository.address, account!.address]).size).toBe(3);
  });

  it("takes a usdSend over HTTP from the solver to an address the exchange has never seen", async () => {
    const time = Date.now();
    const recipient = "0x000000000000000000000000000000000000beef";
    const action = {
      type: "usdSend" as const,
      signatureChainId: "0x66eee",
      hyperliquidChain: exchange.network,
      destination: recipient,
      amount: "5",
      time,
    };
    const body = await signUserSignedAction(exchange.solver, action);
    expect(await post("/exchange", body)).toEqual({ status: "ok", response: { type: "default" } });
    expect(await post("/info", { type: "clearinghouseState", user: recipient })).toMatchObject({ withdrawable: "5.0" });
  });
});
