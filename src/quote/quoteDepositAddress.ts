import type { QuotedDepositAddress } from "../../schema/depositAddresses.js";
import { depositAddressTerms } from "./depositAddressTerms.js";
import type { QuoteEngineDeps } from "./quoteEngineDeps.js";
import type { QuoteRequest } from "./validateQuoteRequest.js";

/**
 * The deposit address of a `useDepositAddress` quote: the address of an expired, unpaid request the same API key
 * quoted on identical terms (regenerated: the new request supersedes it), else a fresh one the origin's family makes
 * for this order and depositor, with its key (Bitcoin: of a fresh derivation index). A keyless quote always gets a
 * fresh one.
 */
export async function quoteDepositAddress(
  request: QuoteRequest,
  deps: Pick<QuoteEngineDeps, "adapters" | "depositAddresses">,
  quote: { now: Date; apiKeyId: string | undefined; orderId: string; requestId: string },
): Promise<QuotedDepositAddress | undefined> {
  const depositAddresses = deps.depositAddresses;
  if (!request.depositAddress || !depositAddresses) return undefined;
  const { originChain } = request;
  const type = request.depositAddress.type;
  const terms = depositAddressTerms(request, quote.apiKeyId);
  const previous = terms && (await depositAddresses.regenerable({ chainId: originChain.id, terms, now: quote.now }));
  if (previous)
    return {
      chainId: originChain.id,
      address: previous.address,
      key: previous.key,
      type,
      supersedes: previous.requestId,
      terms,
    };
  const { address, key } = await deps.adapters.quoter(originChain.id).depositAddressFor!({
    orderId: quote.orderId,
    requestId: quote.requestId,
    depositor: request.user,
    nextIndex: () => depositAddresses.next(),
  });
  return { chainId: originChain.id, address, key, type, ...(terms ? { terms } : {}) };
}
