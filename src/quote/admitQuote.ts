import { ForbiddenError, InvalidInputError } from "../domain/errors.js";
import { DEFAULT_SPONSORED_APP_FEE_MAX_BPS } from "../domain/sponsorFees.js";
import { assertChainsOpen } from "./assertChainsOpen.js";
import type { QuoteCaller, QuoteEngineDeps } from "./quoteEngineDeps.js";
import { type QuoteRequest, validateQuoteRequest } from "./validateQuoteRequest.js";

/**
 * The first step of a quote: the body validated, fee sponsorship allowed to the caller's key (and the app fees it
 * would pay capped), both chains open. Returns the request and its sponsor (the key's integrator), if any.
 */
export async function admitQuote(
  deps: QuoteEngineDeps,
  body: unknown,
  caller: QuoteCaller,
): Promise<{ request: QuoteRequest; sponsor: string | undefined }> {
  const request = validateQuoteRequest(body, deps.registry, deps.adapters);
  const sponsor = request.sponsorship ? caller.integrator : undefined;
  if (request.sponsorship && !sponsor) {
    throw new InvalidInputError(
      "INVALID_INPUT",
      "subsidizeFees needs an x-api-key: the sponsor is the integrator of the key the quote is made with",
    );
  }
  if (request.sponsorship && !caller.sponsors) {
    throw new ForbiddenError(
      "subsidizeFees: this key may not sponsor fees; an operator allows a key to (crossfill sponsors allow <key id>)",
    );
  }
  // A sponsor paying the app bucket pays the quote's app-fee recipients: capped, as those may be the sponsor itself.
  const appFeeBps = request.appFees.reduce((sum, fee) => sum + fee.bps, 0n);
  const appFeeMaxBps = deps.settings.sponsoredAppFeeMaxBps ?? DEFAULT_SPONSORED_APP_FEE_MAX_BPS;
  if (request.sponsorship?.components.includes("app") && appFeeBps > appFeeMaxBps) {
    throw new InvalidInputError(
      "INVALID_INPUT",
      `appFees: a quote whose sponsor pays the app bucket may carry at most ${appFeeMaxBps} bps of app fees in all; this one carries ${appFeeBps}`,
    );
  }
  await assertChainsOpen(deps.availability, [request.originChain, request.destinationChain]);
  return { request, sponsor };
}
