import { createHash } from "node:crypto";
import type { QuoteRequest } from "./validateQuoteRequest.js";

/**
 * A digest of everything a deposit-address quote agrees to, bound to the API key that made it: an expired, unpaid
 * address is regenerated only for a quote with the same digest (schema/depositAddresses), so nobody else, and no other
 * amount, slippage, fee or call, can take over an address a user's wallet may still pay. Undefined without a key:
 * anyone could repeat a keyless quote's public fields, so it always gets a fresh address.
 */
export function depositAddressTerms(request: QuoteRequest, apiKeyId: string | undefined): string | undefined {
  if (!apiKeyId) return undefined;
  const { sponsorship } = request;
  const terms = {
    apiKeyId,
    origin: [request.originChain.id, request.currencyIn.address, request.user, request.refundTo],
    destination: [request.destinationChain.id, request.currencyOut.address, request.recipient],
    amount: [request.tradeType, request.amount],
    calls: request.calls.map((call) => [call.to, call.value, call.data]),
    slippageBps: [request.slippageBps ?? null, request.latePaymentSlippageBps ?? null],
    referrer: request.referrer ?? null,
    appFees: request.appFees.map((fee) => [fee.recipient, fee.bps]),
    sponsorship: sponsorship ? [sponsorship.components, sponsorship.bps, sponsorship.capMicroUsd ?? null] : null,
    type: request.depositAddress?.type ?? null,
  };
  const json = JSON.stringify(terms, (_, value) => (typeof value === "bigint" ? value.toString() : value));
  return createHash("sha256").update(json).digest("hex");
}
