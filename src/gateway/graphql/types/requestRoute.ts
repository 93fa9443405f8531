import type { buildRequestRecordV3 } from "../../../requests/buildRequestRecordV3.js";
import type { RouteSide } from "../../../requests/requestRoute.js";
import { builder } from "../builder.js";
import { AmountRef } from "./amount.js";

type Route = ReturnType<typeof buildRequestRecordV3>["data"]["route"];

const RequestRouteSideRef = builder.objectRef<RouteSide>("RequestRouteSide").implement({
  fields: (t) => ({
    inputCurrency: t.field({ type: AmountRef, nullable: true, resolve: (side) => side.inputCurrency }),
    outputCurrency: t.field({
      type: AmountRef,
      nullable: true,
      description:
        "Null on the actual origin side while a deposit is seen but no fill attempted; on a same-chain request's origin side, the output (received once filled).",
      resolve: (side) => side.outputCurrency,
    }),
    router: t.exposeString("router", { description: "On the actual route, the provider that filled the leg." }),
  }),
});

const RequestQuotedRouteRef = builder.objectRef<Route["quoted"]>("RequestQuotedRoute").implement({
  fields: (t) => ({
    origin: t.field({ type: RequestRouteSideRef, resolve: (route) => route.origin }),
    destination: t.field({
      type: RequestRouteSideRef,
      nullable: true,
      description: "Null on a same-chain request: its origin side is the whole route.",
      resolve: (route) => route.destination ?? null,
    }),
  }),
});

const RequestActualRouteRef = builder.objectRef<Route["actual"]>("RequestActualRoute").implement({
  description: "Falls back to the quoted route where nothing was executed yet.",
  fields: (t) => ({
    rate: t.exposeString("rate"),
    origin: t.field({ type: RequestRouteSideRef, resolve: (route) => route.origin }),
    destination: t.field({
      type: RequestRouteSideRef,
      nullable: true,
      description: "Null on a same-chain request: origin.outputCurrency is then what was received.",
      resolve: (route) => route.destination ?? null,
    }),
  }),
});

/** data.route of the v3 record: deposited = actual.origin.inputCurrency, received = actual.destination.outputCurrency. */
export const RequestRouteRef = builder.objectRef<Route>("RequestRoute").implement({
  description:
    "data.route of GET /requests/v3. Deposited: actual.origin.inputCurrency; received: actual.destination.outputCurrency.",
  fields: (t) => ({
    includedSwapSources: t.exposeStringList("includedSwapSources"),
    includedOriginSwapSources: t.exposeStringList("includedOriginSwapSources"),
    includedDestinationSwapSources: t.exposeStringList("includedDestinationSwapSources"),
    quoted: t.field({ type: RequestQuotedRouteRef, resolve: (route) => route.quoted }),
    actual: t.field({ type: RequestActualRouteRef, resolve: (route) => route.actual }),
  }),
});
