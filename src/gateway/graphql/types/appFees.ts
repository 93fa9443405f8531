import { type AppFeeClaim, listAppFeeClaims } from "../../../../schema/appFeeClaims.js";
import { parseEvmAddress } from "../../../appFees/parseEvmAddress.js";
import { readAppFeeBalances } from "../../../appFees/readAppFeeBalances.js";
import type { AmountObject } from "../../../quote/amountObject.js";
import { builder } from "../builder.js";
import { AmountRef } from "./amount.js";
import { CurrencyRef } from "./currency.js";

type Balances = { balances: AmountObject[]; totalBalanceUsd: number; availableBalanceUsd: number };

const AppFeeBalancesRef = builder.objectRef<Balances>("AppFeeBalances").implement({
  description: "As GET /app-fees/{wallet}/balances: app fees earned and not yet claimed, at today's prices.",
  fields: (t) => ({
    balances: t.field({ type: [AmountRef], resolve: (balances) => balances.balances }),
    totalBalanceUsd: t.exposeFloat("totalBalanceUsd", { description: "A display value, never an amount." }),
    availableBalanceUsd: t.exposeFloat("availableBalanceUsd"),
  }),
});

const AppFeeClaimRef = builder.objectRef<AppFeeClaim>("AppFeeClaim").implement({
  description:
    "A signed claim of app fees: queued, sent (the payout broadcast), paid (the payout indexed) or failed (the Depository could not cover it within the retry limit; its amount is claimable again).",
  fields: (t) => ({
    claimId: t.exposeString("id"),
    chainId: t.exposeInt("chainId"),
    currency: t.field({
      type: CurrencyRef,
      nullable: true,
      resolve: (claim, _, context) => context.registry.currency(claim.chainId, claim.currency) ?? null,
    }),
    amount: t.string({ resolve: (claim) => claim.amount.toString() }),
    recipient: t.exposeString("recipient"),
    status: t.exposeString("status"),
    txHash: t.exposeString("txHash", { nullable: true }),
    attempts: t.exposeInt("attempts", {
      description: "Payouts refused so far because the Depository could not cover it.",
    }),
    nextAttemptAt: t.string({
      nullable: true,
      description: "When a queued claim is tried again after a refused payout (ISO 8601); null otherwise.",
      resolve: (claim) => claim.nextAttemptAt?.toISOString() ?? null,
    }),
    reason: t.exposeString("lastError", {
      nullable: true,
      description: "Why the last payout was refused, or why the claim failed; null when none was.",
    }),
    createdAt: t.string({ resolve: (claim) => claim.createdAt.toISOString() }),
  }),
});

builder.queryFields((t) => ({
  appFeeBalances: t.field({
    type: AppFeeBalancesRef,
    args: { wallet: t.arg.string({ required: true }) },
    resolve: (_, { wallet }, context) =>
      readAppFeeBalances(context.db, { registry: context.registry, prices: context.quoteEngine.prices }, wallet),
  }),
  appFeeClaims: t.field({
    type: [AppFeeClaimRef],
    description: "The wallet's last 50 claims, newest first.",
    args: { wallet: t.arg.string({ required: true }) },
    resolve: (_, { wallet }, context) => listAppFeeClaims(context.db, parseEvmAddress(wallet, "wallet")),
  }),
}));
