import type { QuoteStep } from "../chains/adapter.js";
import type { quoteResponse } from "./quoteResponse.js";

type QuoteAnswer = ReturnType<typeof quoteResponse>;

/** The spec's Quote response: the request's id, the steps the user performs, and what the quote priced. */
export type Quote = {
  requestId: string;
  steps: QuoteStep[];
  fees: QuoteAnswer["fees"];
  feeSponsorship: QuoteAnswer["feeSponsorship"];
  details: QuoteAnswer["details"];
  protocol: QuoteAnswer["protocol"];
};
