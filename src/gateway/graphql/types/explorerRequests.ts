import { searchTerm } from "../../rest/searchTerm.js";
import { emptyFilter } from "../../../../schema/requestFilter.js";
import { listRequestViews, requestViewsByIds } from "../../../../schema/requestsQuery.js";
import { hidePrivateChains } from "../../../requests/hidePrivateChains.js";
import { InvalidInputError } from "../../../domain/errors.js";
import { builder } from "../builder.js";
import { RequestRef, primeRequestViews } from "./request.js";
import { RequestStatusEnum } from "./requestStatus.js";

const PAGE = { default: 10, max: 20 } as const;
const MAX_TERM = 200;
const REQUEST_ID = /^0x[0-9a-f]{64}$/;

// The public explorer's search and recent list. Requests are public on-chain and `Request` exposes only public
// fields (referrer only to its integrator), so no key is needed; the integrator's filtered listing stays `requests`.
builder.queryFields((t) => ({
  explorerRequests: t.field({
    type: [RequestRef],
    description: `No API key needed: the newest requests, or with term those matching it as the requests filter's term does (request id, any transaction hash, wallet), child requests included (parentRequestId names their parent); status and chainId (origin or destination) narrow it; after, the id of the last request of the previous page, pages on; first 1-${PAGE.max}, default ${PAGE.default}.`,
    args: {
      term: t.arg.string(),
      status: t.arg({ type: [RequestStatusEnum] }),
      chainId: t.arg.int(),
      after: t.arg.string(),
      first: t.arg.int(),
    },
    resolve: async (_, args, context) => {
      const limit = args.first ?? PAGE.default;
      if (!Number.isInteger(limit) || limit < 1 || limit > PAGE.max)
        throw new InvalidInputError("INVALID_INPUT", `first: 1 to ${PAGE.max}`);
      // A hash or wallet finds whatever request it names, and the newest show every request: a child request (a
      // further deposit) too, linked to its parent.
      const filter = { ...emptyFilter(), includeChildRequests: true };
      const term = args.term?.trim();
      if (term !== undefined) {
        if (term === "" || term.length > MAX_TERM)
          throw new InvalidInputError("INVALID_INPUT", `term: a non-empty string of at most ${MAX_TERM} characters`);
        filter.term = searchTerm(term);
      }
      if (args.status?.length) filter.conditions.push({ field: "status", negate: false, values: args.status });
      if (args.chainId !== null && args.chainId !== undefined)
        filter.conditions.push({ field: "chainId", negate: false, values: [args.chainId] });
      const after = args.after ? await pageStart(context.db, args.after) : undefined;
      // The public explorer never shows a private chain's requests.
      const views = await listRequestViews(context.db, {
        filter: hidePrivateChains(filter, context.registry, []),
        sortBy: "createdAt",
        sortDirection: "desc",
        limit,
        after,
      });
      primeRequestViews(context, views);
      return views;
    },
  }),
}));

/** The keyset after a request id: the page goes on from that request's place among the newest. */
async function pageStart(db: Parameters<typeof requestViewsByIds>[0], id: string) {
  const lowered = id.toLowerCase();
  const [view] = REQUEST_ID.test(lowered) ? await requestViewsByIds(db, [lowered]) : [];
  if (!view) throw new InvalidInputError("INVALID_INPUT", "after: the id of a request of the previous page");
  return { value: view.sortValue, id: view.id };
}
