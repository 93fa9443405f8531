import type { SearchTerm } from "../../../schema/requestFilter.js";
import { anyTransactionHash } from "../../chains/vmFamilies.js";

/** A search term (REST `term`, GraphQL `filter.term` and `explorerRequests`), read as a hash by whichever family takes it. */
export function searchTerm(text: string): SearchTerm {
  return { text, transactionHash: anyTransactionHash(text) };
}
