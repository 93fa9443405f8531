import type { Currency } from "../../../chains/chainRegistry.js";
import type { AmountObject } from "../../../quote/amountObject.js";
import type { CurrencyObject } from "../../../requests/requestRoute.js";
import { builder } from "../builder.js";
import { AmountRef } from "./amount.js";
import { CurrencyRef } from "./currency.js";

type Component = { selected: boolean; total: AmountObject; sponsored: AmountObject; userPays: AmountObject };
/** One phase of the spec's feeSponsorship, as a quote answers it (request records rename `relay` to `platform`). */
export type SponsorshipPhase = {
  selectedComponents: string[];
  capHit: boolean;
  components: Record<string, Component>;
  sponsoredTotal: AmountObject;
  userPaysTotal: AmountObject;
  maxSubsidizationAmount: string;
  subsidizationBps: number;
  sponsorPayment?: { amount: string; address: string; chainId: number };
};

const SponsorPaymentRef = builder
  .objectRef<NonNullable<SponsorshipPhase["sponsorPayment"]>>("SponsorPayment")
  .implement({
    fields: (t) => ({
      amount: t.exposeString("amount"),
      address: t.exposeString("address"),
      chainId: t.exposeInt("chainId"),
    }),
  });

const FeeSponsorshipComponentRef = builder
  .objectRef<Component & { component: string }>("FeeSponsorshipComponent")
  .implement({
    description: "One fee bucket of a sponsorship (the spec's `components.<component>`).",
    fields: (t) => ({
      component: t.exposeString("component", {
        description: "execution, swap, app, rent, and the service's own: relay in quotes, platform in request records.",
      }),
      selected: t.exposeBoolean("selected"),
      total: t.field({ type: AmountRef, resolve: (component) => component.total }),
      sponsored: t.field({ type: AmountRef, resolve: (component) => component.sponsored }),
      userPays: t.field({ type: AmountRef, resolve: (component) => component.userPays }),
    }),
  });

export const FeeSponsorshipPhaseRef = builder.objectRef<SponsorshipPhase>("FeeSponsorshipPhase").implement({
  fields: (t) => ({
    selectedComponents: t.exposeStringList("selectedComponents"),
    capHit: t.exposeBoolean("capHit"),
    components: t.field({
      type: [FeeSponsorshipComponentRef],
      resolve: (phase) => Object.entries(phase.components).map(([component, value]) => ({ ...value, component })),
    }),
    sponsoredTotal: t.field({ type: AmountRef, resolve: (phase) => phase.sponsoredTotal }),
    userPaysTotal: t.field({ type: AmountRef, resolve: (phase) => phase.userPaysTotal }),
    maxSubsidizationAmount: t.exposeString("maxSubsidizationAmount", { description: "USD micro-units." }),
    subsidizationBps: t.exposeInt("subsidizationBps", { description: "10000 = 100%." }),
    sponsorPayment: t.field({
      type: SponsorPaymentRef,
      nullable: true,
      description: "Only in the actual phase.",
      resolve: (phase) => phase.sponsorPayment ?? null,
    }),
  }),
});

/** A quote's feeSponsorship. */
export const FeeSponsorshipRef = builder
  .objectRef<{ quoted: SponsorshipPhase; actual: SponsorshipPhase }>("FeeSponsorship")
  .implement({
    fields: (t) => ({
      quoted: t.field({ type: FeeSponsorshipPhaseRef, resolve: (sponsorship) => sponsorship.quoted }),
      actual: t.field({ type: FeeSponsorshipPhaseRef, resolve: (sponsorship) => sponsorship.actual }),
    }),
  });

/** A request record's data.feeSponsorship: the quote's phases (null when the quote had none) and the fee currency. */
export const RequestFeeSponsorshipRef = builder
  .objectRef<{ quoted: unknown; actual: unknown; currency: CurrencyObject }>("RequestFeeSponsorship")
  .implement({
    description: "data.feeSponsorship of GET /requests/v3: the quote's phases, the service's component named platform.",
    fields: (t) => ({
      quoted: t.field({
        type: FeeSponsorshipPhaseRef,
        nullable: true,
        resolve: (sponsorship) => sponsorship.quoted as SponsorshipPhase | null,
      }),
      actual: t.field({
        type: FeeSponsorshipPhaseRef,
        nullable: true,
        resolve: (sponsorship) => sponsorship.actual as SponsorshipPhase | null,
      }),
      currency: t.field({ type: CurrencyRef, resolve: (sponsorship) => sponsorship.currency as Currency }),
    }),
  });
