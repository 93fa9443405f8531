import { type Hex, encodeAbiParameters, encodePacked } from "viem";
import { keccak256 } from "./keccak256.js";

/**
 * The protocol order a deposit commits to (`protocol.v2.orderData`). Chain ids are chain names and
 * addresses are strings so that one encoding serves every VM; amounts are decimal strings.
 */
export type OrderData = {
  version: string;
  solverChainId: string;
  solver: string;
  salt: string;
  inputs: Array<{
    payment: { chainId: string; currency: string; amount: string; weight: string };
    refunds: Array<{
      chainId: string;
      recipient: string;
      currency: string;
      minimumAmount: string;
      deadline: number;
      extraData: Hex;
    }>;
  }>;
  output: {
    chainId: string;
    payments: Array<{ recipient: string; currency: string; minimumAmount: string; expectedAmount: string }>;
    calls: Hex[];
    deadline: number;
    extraData: Hex;
  };
  fees: Array<{
    recipientChainId: string;
    recipient: string;
    currencyChainId: string;
    currency: string;
    amount: string;
  }>;
};

const ORDER_ABI = [
  {
    type: "tuple",
    components: [
      { name: "version", type: "string" },
      { name: "solverChainId", type: "string" },
      { name: "solver", type: "string" },
      { name: "salt", type: "uint256" },
      {
        name: "inputs",
        type: "tuple[]",
        components: [
          {
            name: "payment",
            type: "tuple",
            components: [
              { name: "chainId", type: "string" },
              { name: "currency", type: "string" },
              { name: "amount", type: "uint256" },
              { name: "weight", type: "uint256" },
            ],
          },
          {
            name: "refunds",
            type: "tuple[]",
            components: [
              { name: "chainId", type: "string" },
              { name: "recipient", type: "string" },
              { name: "currency", type: "string" },
              { name: "minimumAmount", type: "uint256" },
              { name: "deadline", type: "uint256" },
              { name: "extraData", type: "bytes" },
            ],
          },
        ],
      },
      {
        name: "output",
        type: "tuple",
        components: [
          { name: "chainId", type: "string" },
          {
            name: "payments",
            type: "tuple[]",
            components: [
              { name: "recipient", type: "string" },
              { name: "currency", type: "string" },
              { name: "minimumAmount", type: "uint256" },
              { name: "expectedAmount", type: "uint256" },
            ],
          },
          { name: "calls", type: "bytes[]" },
          { name: "deadline", type: "uint256" },
          { name: "extraData", type: "bytes" },
        ],
      },
      {
        name: "fees",
        type: "tuple[]",
        components: [
          { name: "recipientChainId", type: "string" },
          { name: "recipient", type: "string" },
          { name: "currencyChainId", type: "string" },
          { name: "currency", type: "string" },
          { name: "amount", type: "uint256" },
        ],
      },
    ],
  },
] as const;

/** The ABI encoding whose keccak256 is the order id; published so integrators can recompute it offline. */
export function encodeOrder(order: OrderData): Hex {
  return encodeAbiParameters(ORDER_ABI, [
    {
      version: order.version,
      solverChainId: order.solverChainId,
      solver: order.solver,
      salt: BigInt(order.salt),
      inputs: order.inputs.map((input) => ({
        payment: { ...input.payment, amount: BigInt(input.payment.amount), weight: BigInt(input.payment.weight) },
        refunds: input.refunds.map((refund) => ({
          ...refund,
          minimumAmount: BigInt(refund.minimumAmount),
          deadline: BigInt(refund.deadline),
        })),
      })),
      output: {
        chainId: order.output.chainId,
        payments: order.output.payments.map((payment) => ({
          ...payment,
          minimumAmount: BigInt(payment.minimumAmount),
          expectedAmount: BigInt(payment.expectedAmount),
        })),
        calls: order.output.calls,
        deadline: BigInt(order.output.deadline),
        extraData: order.output.extraData,
      },
      fees: order.fees.map((fee) => ({ ...fee, amount: BigInt(fee.amount) })),
    },
  ]);
}

export function computeOrderId(order: OrderData): Hex {
  return keccak256(encodeOrder(order));
}

/** The request id clients poll with: derived from, but distinct from, the order id. */
export function computeRequestId(orderId: Hex): Hex {
  return keccak256(encodePacked(["string", "bytes32"], ["crossfill.request", orderId]));
}

const CALL_ABI = [
  { name: "to", type: "address" },
  { name: "value", type: "uint256" },
  { name: "data", type: "bytes" },
] as const;

/** One destination call as it appears in `orderData.output.calls`. */
export function encodeOrderCall(call: { to: Hex; value: bigint; data: Hex }): Hex {
  return encodeAbiParameters(CALL_ABI, [call.to, call.value, call.data]);
}
