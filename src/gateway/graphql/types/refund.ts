import type { RequestRefund } from "../../../../schema/refunds.js";
import { builder } from "../builder.js";
import { CurrencyRef } from "./currency.js";

const RefundStatusEnum = builder.enumType("RefundStatus", {
  description:
    "queued → sent → confirmed; unrefundable or manual when it cannot run by itself (docs/OPERATIONS.md), settled by an operator.",
  values: ["queued", "sent", "confirmed", "unrefundable", "manual", "settled"] as const,
});

export const RefundRef = builder.objectRef<RequestRefund>("Refund").implement({
  description: "The return of one deposit to its refund recipient, less the refund transaction's own gas.",
  fields: (t) => ({
    status: t.field({ type: RefundStatusEnum, resolve: (refund) => refund.status }),
    reason: t.exposeString("reason", {
      description: "The fail reason that sent the deposit back (DOUBLE_SPEND for a second deposit).",
    }),
    refundFailReason: t.exposeString("refundFailReason", { nullable: true }),
    depositTxHash: t.exposeString("depositTxHash"),
    chainId: t.exposeInt("chainId"),
    currencyAddress: t.exposeString("currency"),
    currency: t.field({
      type: CurrencyRef,
      nullable: true,
      resolve: (refund, _, context) => context.registry.currency(refund.chainId, refund.currency) ?? null,
    }),
    recipient: t.exposeString("recipient"),
    deposited: t.string({
      description: "The deposit being returned, smallest unit.",
      resolve: (refund) => refund.deposited.toString(),
    }),
    amount: t.string({
      nullable: true,
      description:
        "What the recipient receives (deposit less gasCost), smallest unit; null until the refund is signed.",
      resolve: (refund) => refund.amount?.toString() ?? null,
    }),
    gasCost: t.string({
      nullable: true,
      description: "The refund transaction's gas, charged to the deposit in its own currency; null until signed.",
      resolve: (refund) => refund.gasCost?.toString() ?? null,
    }),
    txHash: t.exposeString("txHash", { nullable: true }),
    createdAt: t.field({ type: "DateTime", resolve: (refund) => refund.createdAt }),
    updatedAt: t.field({ type: "DateTime", resolve: (refund) => refund.updatedAt }),
  }),
});
