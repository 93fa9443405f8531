import type { SearchTerm } from "../../../schema/requestFilter.js";
import { anyAddressKey, anyTransactionHash } from "../../chains/vmFamilies.js";

/**
 * A search term (REST `term`, GraphQL `filter.term` and `explorerRequests`), read as a hash and as an address by
 * whichever family takes it.
 */
export function searchTerm(text: string): SearchTerm {
  return { text, transactionHash: anyTransactionHash(text), address: anyAddressKey(text) };
}
