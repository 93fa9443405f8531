import { decodeAbiParameters, keccak256 } from "viem";
import { describe, expect, it } from "vitest";
import { type OrderData, computeOrderId, computeRequestId, encodeOrder, encodeOrderCall } from "./order.js";

const order: OrderData = {
  version: "v1",
  solverChainId: "devnet-b",
  solver: "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
  salt: "123456789",
  inputs: [
    {
      payment: {
        chainId: "devnet-a",
        currency: "0x0000000000000000000000000000000000000000",
        amount: "1000000000000000000",
        weight: "1",
      },
      refunds: [
        {
          chainId: "devnet-a",
          recipient: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
          currency: "0x0000000000000000000000000000000000000000",
          minimumAmount: "0",
          deadline: 1_800_000_000,
          extraData: "0x",
        },
      ],
    },
  ],
  output: {
    chainId: "devnet-b",
    payments: [
      {
        recipient: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
        currency: "0x0000000000000000000000000000000000000000",
        minimumAmount: "990000000000000000",
        expectedAmount: "995000000000000000",
      },
    ],
    calls: [],
    deadline: 1_800_000_000,
    extraData: "0x",
  },
  fees: [],
};

describe("order id", () => {
  it("is keccak256 of the order's ABI encoding and changes with any field", () => {
    const id = computeOrderId(order);
    expect(id).toBe(keccak256(encodeOrder(order)));
    expect(id).toMatch(/^0x[0-9a-f]{64}$/);
    expect(computeOrderId({ ...order, salt: "123456790" })).not.toBe(id);
    const lower = structuredClone(order);
    lower.output.payments[0].minimumAmount = "1";
    expect(computeOrderId(lower)).not.toBe(id);
  });

  it("survives a JSON round trip, as integrators recompute it from the quote response", () => {
    expect(computeOrderId(JSON.parse(JSON.stringify(order)))).toBe(computeOrderId(order));
  });

  it("derives a request id distinct from the order id", () => {
    const orderId = computeOrderId(order);
    expect(computeRequestId(orderId)).not.toBe(orderId);
    expect(computeRequestId(orderId)).toBe(computeRequestId(orderId));
  });

  it("encodes destination calls as (to, value, data)", () => {
    const encoded = encodeOrderCall({ to: "0x00000000000000000000000000000000000000aa", value: 5n, data: "0x1234" });
    const [to, value, data] = decodeAbiParameters(
      [{ type: "address" }, { type: "uint256" }, { type: "bytes" }],
      encoded,
    );
    expect([to.toLowerCase(), value, data]).toEqual(["0x00000000000000000000000000000000000000aa", 5n, "0x1234"]);
  });
});
