import { searchTerm } from "../../rest/searchTerm.js";
import { emptyFilter } from "../../../../schema/requestFilter.js";
import { listRequestViews } from "../../../../schema/requestsQuery.js";
import { hidePrivateChains } from "../../../requests/hidePrivateChains.js";
import { InvalidInputError } from "../../../domain/errors.js";
import { builder } from "../builder.js";
import { RequestRef, primeRequestViews } from "./request.js";

const PAGE = { default: 10, max: 20 } as const;
const MAX_TERM = 200;

// The public explorer's search and recent list. Requests are public on-chain and `Request` exposes only public
// fields (referrer only to its integrator), so no key is needed; the filtered, paged listing stays `requests`.
builder.queryFields((t) => ({
  explorerRequests: t.field({
    type: [RequestRef],
    description: `No API key needed: the newest requests, or with term those matching it as the requests filter's term does (request id, any transaction hash, wallet), child requests included; the newest leave child requests out; first 1-${PAGE.max}, default ${PAGE.default}.`,
    args: { term: t.arg.string(), first: t.arg.int() },
    resolve: async (_, args, context) => {
      const limit = args.first ?? PAGE.default;
      if (!Number.isInteger(limit) || limit < 1 || limit > PAGE.max)
        throw new InvalidInputError("INVALID_INPUT", `first: 1 to ${PAGE.max}`);
      const filter = emptyFilter();
      const term = args.term?.trim();
      if (term !== undefined) {
        if (term === "" || term.length > MAX_TERM)
          throw new InvalidInputError("INVALID_INPUT", `term: a non-empty string of at most ${MAX_TERM} characters`);
        filter.term = searchTerm(term);
        // A hash or wallet finds whatever request it names, a child request (a further deposit) too.
        filter.includeChildRequests = true;
      }
      // The public explorer never shows a private chain's requests.
      const visible = hidePrivateChains(filter, context.registry, []);
      const views = await listRequestViews(context.db, {
        filter: visible,
        sortBy: "createdAt",
        sortDirection: "desc",
        limit,
      });
      primeRequestViews(context, views);
      return views;
    },
  }),
}));
