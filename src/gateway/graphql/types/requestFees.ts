import type { Currency } from "../../../chains/chainRegistry.js";
import type { buildRequestRecordV3 } from "../../../requests/buildRequestRecordV3.js";
import { builder } from "../builder.js";
import { CurrencyRef } from "./currency.js";

type Fees = ReturnType<typeof buildRequestRecordV3>["data"]["fees"];
type Phase = Fees["quoted"];

const RequestFeeComponentRef = builder.objectRef<Phase["swap"]>("RequestFeeComponent").implement({
  description: "Signed values: negative is a cost to the user.",
  fields: (t) => ({
    usd: t.exposeString("usd"),
    amount: t.exposeString("amount"),
    amountFormatted: t.exposeString("amountFormatted"),
  }),
});

const RequestFeePhaseRef = builder.objectRef<Phase>("RequestFeePhase").implement({
  fields: (t) => ({
    swap: t.field({ type: RequestFeeComponentRef, resolve: (phase) => phase.swap }),
    execution: t.field({ type: RequestFeeComponentRef, resolve: (phase) => phase.execution }),
    platform: t.field({ type: RequestFeeComponentRef, resolve: (phase) => phase.platform }),
    app: t.field({ type: RequestFeeComponentRef, resolve: (phase) => phase.app }),
    sponsored: t.field({ type: RequestFeeComponentRef, resolve: (phase) => phase.sponsored }),
  }),
});

/** data.fees of the v3 record. */
export const RequestFeesRef = builder.objectRef<Fees>("RequestFees").implement({
  description: "data.fees of GET /requests/v3: each component signed, negative a cost to the user.",
  fields: (t) => ({
    quoted: t.field({ type: RequestFeePhaseRef, resolve: (fees) => fees.quoted }),
    actual: t.field({
      type: RequestFeePhaseRef,
      description: "Fees are fixed at quote time: the quoted phase, before the fill too.",
      resolve: (fees) => fees.actual,
    }),
    currency: t.field({ type: CurrencyRef, resolve: (fees) => fees.currency as Currency }),
  }),
});
