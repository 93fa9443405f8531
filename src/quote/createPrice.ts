import { type QuoteEngineDeps, createQuote } from "./createQuote.js";

/**
 * POST /price: the same validation, pricing, liquidity check and error classification as a quote, answered as
 * the quote's `fees` and `details` only; nothing is stored, signed or made executable.
 */
export async function createPrice(deps: QuoteEngineDeps, body: unknown) {
  // A valid includeProtocolData is turned off (no order is signed); an invalid one is left for validation to refuse.
  const asked =
    body !== null &&
    typeof body === "object" &&
    !Array.isArray(body) &&
    typeof (body as { includeProtocolData?: unknown }).includeProtocolData === "boolean";
  const input = asked ? { ...(body as object), includeProtocolData: false } : body;
  const { fees, details } = await createQuote({ ...deps, saveRequest: async () => undefined }, input);
  return { fees, details };
}
