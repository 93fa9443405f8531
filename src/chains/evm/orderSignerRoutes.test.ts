import { type Hex, keccak256, recoverMessageAddress, toHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testOrder } from "../../../test/support/testOrder.js";
import { computeOrderId } from "../../domain/order.js";
import { type ListeningApp, listenApp } from "../../runtime/listenApp.js";
import { localOrderSigner } from "./localOrderSigner.js";
import { orderSignerRoutes } from "./orderSignerRoutes.js";
import { remoteOrderSigner } from "./remoteOrderSigner.js";

const solver = privateKeyToAccount(generatePrivateKey());
const token = "s".repeat(48);
const inTenMinutes = () => Math.floor(Date.now() / 1000) + 600;
let server: ListeningApp;

const post = async (body: unknown, authorization: string | null = `Bearer ${token}`) => {
  const response = await fetch(`${server.url}/order-signatures`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(authorization ? { authorization } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

beforeAll(async () => {
  server = await listenApp(orderSignerRoutes(localOrderSigner(solver), token), "127.0.0.1", 0);
});
afterAll(() => server.close());

describe("the order signer service", () => {
  it("signs a quote's order for the gateway's remote signer, recovering to the solver over the order's id", async () => {
    const order = testOrder(solver.address, inTenMinutes());
    const signature = await remoteOrderSigner({ url: server.url, token, address: solver.address }).signOrder(order);
    expect(await recoverMessageAddress({ message: { raw: computeOrderId(order) }, signature: signature as Hex })).toBe(
      solver.address,
    );
  });

  it("signs no value a caller chose, even one holding the token (a compromised gateway)", async () => {
    const target = keccak256(toHex("a value another contract would take the solver's signature of"));
    const order = testOrder(solver.address, inTenMinutes());
    const attempts = [
      { orderId: target },
      { message: { raw: target } },
      { order, orderId: target },
      { order: { ...order, orderId: target } },
      { order: { ...order, salt: target } },
      { order: testOrder(privateKeyToAccount(generatePrivateKey()).address, inTenMinutes()) },
      { order: testOrder(solver.address, Math.floor(Date.now() / 1000) - 1) },
      "not json at all",
    ];
    for (const attempt of attempts) {
      const { status, body } = await post(attempt);
      expect(status, JSON.stringify(attempt)).toBe(400);
      expect(body).toMatchObject({ errorCode: "INVALID_INPUT", message: expect.any(String) });
      expect(body.signature).toBeUndefined();
    }
    // A salt of the attacker's choosing is hashed with the rest of the order: the signature is over that hash only.
    const salted = { ...order, salt: BigInt(target).toString() };
    const { body } = await post({ order: salted });
    const signature = body.signature as Hex;
    expect(await recoverMessageAddress({ message: { raw: computeOrderId(salted) }, signature })).toBe(solver.address);
    expect(await recoverMessageAddress({ message: { raw: target }, signature })).not.toBe(solver.address);
  });

  it("answers 401 without the token or with another, whatever the order, and 404 off its one route", async () => {
    const order = testOrder(solver.address, inTenMinutes());
    for (const authorization of [null, `Bearer ${"x".repeat(48)}`, token, `Bearer ${token}x`]) {
      const { status, body } = await post({ order }, authorization);
      expect(status).toBe(401);
      expect(body).toEqual({ message: "the order signer's token is required", errorCode: "UNAUTHORIZED" });
    }
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
  });
});
