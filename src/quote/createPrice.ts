import { type QuoteEngineDeps, createQuote } from "./createQuote.js";
import type { QuoteCaller } from "./quoteEngineDeps.js";

/**
 * POST /price: the same validation, pricing, liquidity check and error classification as a quote, answered as
 * the quote's `fees`, `feeSponsorship` and `details` only; nothing is stored, signed or made executable, no deposit
 * address handed out. The caller's key makes its integrator the sponsor of `subsidizeFees`, as on a quote (its balance
 * is read, not drawn).
 */
export async function createPrice(deps: QuoteEngineDeps, body: unknown, context: QuoteCaller = {}) {
  // A valid includeProtocolData (or its old name) is turned off (no order is signed); an invalid one is left for
  // validation to refuse.
  const input = withoutValidFlags(body, ["includeProtocolData", "includeProtocolSignature"]);
  // No deposit address is handed out (nor an index spent) for a price.
  const { fees, feeSponsorship, details } = await createQuote(
    { ...deps, saveRequest: async () => undefined, depositAddresses: undefined },
    input,
    context,
  );
  return { fees, feeSponsorship, details };
}

function withoutValidFlags(body: unknown, flags: readonly string[]): unknown {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return body;
  const record = body as Record<string, unknown>;
  const off = flags.filter((flag) => typeof record[flag] === "boolean");
  return off.length ? { ...record, ...Object.fromEntries(off.map((flag) => [flag, false])) } : body;
}
