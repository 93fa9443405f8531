import { countRequests } from "../../../../schema/countRequests.js";
import { listRequestViews } from "../../../../schema/requestsQuery.js";
import { InvalidInputError } from "../../../domain/errors.js";
import { authorizeRequestFilter } from "../../../requests/authorizeRequestFilter.js";
import { decodeCursor, encodeCursor } from "../../../requests/continuationCursor.js";
import { SORT_KEYS } from "../../../../schema/requestFilter.js";
import { builder } from "../builder.js";
import { requireApiKey } from "../graphqlContext.js";
import { RequestRef, primeRequestViews } from "./request.js";
import { RequestFilterInput, visibleRequestFilter } from "./requestFilterInput.js";

const PAGE = { default: 20, max: 50 } as const;

type Edge = { cursor: string; node: Awaited<ReturnType<typeof listRequestViews>>[number] };
type Connection = { edges: Edge[]; hasNextPage: boolean; total: number | null };

const RequestSortKey = builder.enumType("RequestSortKey", { values: SORT_KEYS });
const SortDirection = builder.enumType("SortDirection", { values: ["asc", "desc"] as const });

export const PageInfoRef = builder.objectRef<{ hasNextPage: boolean; endCursor: string | null }>("PageInfo").implement({
  fields: (t) => ({
    hasNextPage: t.exposeBoolean("hasNextPage"),
    endCursor: t.exposeString("endCursor", { nullable: true }),
  }),
});

const RequestEdgeRef = builder.objectRef<Edge>("RequestEdge").implement({
  fields: (t) => ({
    cursor: t.exposeString("cursor"),
    node: t.field({ type: RequestRef, resolve: (edge) => edge.node }),
  }),
});

const RequestConnectionRef = builder.objectRef<Connection>("RequestConnection").implement({
  description:
    "One page of requests, newest first unless sorted otherwise; pass pageInfo.endCursor as `after` for the next.",
  fields: (t) => ({
    edges: t.field({ type: [RequestEdgeRef], resolve: (page) => page.edges }),
    pageInfo: t.field({
      type: PageInfoRef,
      resolve: (page) => ({ hasNextPage: page.hasNextPage, endCursor: page.edges.at(-1)?.cursor ?? null }),
    }),
    totalCount: t.int({ nullable: true, description: "Only with includeTotal: true.", resolve: (page) => page.total }),
  }),
});

builder.queryFields((t) => ({
  requests: t.field({
    type: RequestConnectionRef,
    description:
      "Requests matching a filter, like GET /requests/v3: an API key is required, and key filters must be the caller's.",
    args: {
      filter: t.arg({ type: RequestFilterInput }),
      sortBy: t.arg({ type: RequestSortKey }),
      sortDirection: t.arg({ type: SortDirection }),
      first: t.arg.int({ description: `1-${PAGE.max}, default ${PAGE.default}.` }),
      after: t.arg.string(),
      includeTotal: t.arg.boolean(),
    },
    resolve: async (_, args, context) => {
      const caller = await requireApiKey(context);
      const limit = args.first ?? PAGE.default;
      if (!Number.isInteger(limit) || limit < 1 || limit > PAGE.max)
        throw new InvalidInputError("INVALID_INPUT", `first: 1 to ${PAGE.max}`);
      const sortBy = args.sortBy ?? "createdAt";
      const sort = { sortBy, sortDirection: args.sortDirection ?? (sortBy === "amountUsd" ? "asc" : "desc") } as const;
      const filter = await authorizeRequestFilter(
        context.db,
        visibleRequestFilter(args.filter as never, caller.integrator, context.registry),
        caller.integrator,
      );
      const after = args.after ? decodeCursor(context.cursorSecret, sort, args.after) : undefined;
      const [views, total] = await Promise.all([
        listRequestViews(context.db, { filter, ...sort, limit: limit + 1, after }),
        args.includeTotal ? countRequests(context.db, filter) : Promise.resolve(null),
      ]);
      const page = views.slice(0, limit);
      primeRequestViews(context, page);
      const edges = page.map((view) => ({
        cursor: encodeCursor(context.cursorSecret, sort, { value: view.sortValue, id: view.id }),
        node: view,
      }));
      return { edges, hasNextPage: views.length > limit, total };
    },
  }),
}));
