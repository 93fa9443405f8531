import {
  REQUEST_STATS_GROUPS,
  type RequestStatsBucket,
  type RequestStatsGroup,
  requestStats,
} from "../../../../schema/requestStats.js";
import { InvalidInputError } from "../../../domain/errors.js";
import { authorizeRequestFilter } from "../../../requests/authorizeRequestFilter.js";
import { builder } from "../builder.js";
import { requireApiKey } from "../graphqlContext.js";
import { RequestFilterInput, visibleRequestFilter } from "./requestFilterInput.js";
import { RequestStatusEnum } from "./requestStatus.js";

const DAY_MS = 86_400_000;
// A leap year at most: one query should not scan an unbounded history. Hourly buckets are bounded tighter so an
// answer stays a few thousand buckets, not tens of thousands.
export const REQUEST_STATS_LIMITS = { maxDays: 366, maxHourlyDays: 31 } as const;

const RequestStatsGroupEnum = builder.enumType("RequestStatsGroup", {
  description:
    "A requestStats grouping key. DAY and HOUR are UTC buckets of the request's creation time; CURRENCY_IN is the input currency's symbol.",
  values: REQUEST_STATS_GROUPS,
});

const RequestStatsBucketRef = builder.objectRef<RequestStatsBucket>("RequestStatsBucket").implement({
  description:
    "Aggregates of the requests of one group. Group keys not asked for are null (so is failReason for requests without one). " +
    "USD amounts are decimal strings summed in SQL numeric from the quotes' amountUsd values.",
  fields: (t) => ({
    originChainId: t.exposeInt("originChainId", { nullable: true }),
    destinationChainId: t.exposeInt("destinationChainId", { nullable: true }),
    status: t.field({ type: RequestStatusEnum, nullable: true, resolve: (bucket) => bucket.status as never }),
    currencyInSymbol: t.exposeString("currencyInSymbol", { nullable: true }),
    failReason: t.exposeString("failReason", { nullable: true }),
    day: t.field({ type: "DateTime", nullable: true, resolve: (bucket) => bucket.day }),
    hour: t.field({ type: "DateTime", nullable: true, resolve: (bucket) => bucket.hour }),
    count: t.exposeInt("count", { description: "Requests created in the window." }),
    volumeUsd: t.exposeString("volumeUsd", { description: "Quoted input value in USD of every request counted." }),
    filledVolumeUsd: t.exposeString("filledVolumeUsd", {
      description: "Quoted input value in USD of the successful requests.",
    }),
    successes: t.exposeInt("successes", { description: "Requests in status success." }),
    finished: t.exposeInt("finished", { description: "Requests in a final status: success, failure or refund." }),
    successRate: t.exposeString("successRate", {
      nullable: true,
      description: 'successes / finished as a decimal string with 6 decimals ("0.750000"); null when nothing finished.',
    }),
    fillSecondsP50: t.exposeFloat("fillSecondsP50", {
      nullable: true,
      description:
        "Median seconds from deposit to fill (chain timestamps; continuous percentile) of the filled requests; null without fills.",
    }),
    fillSecondsP95: t.exposeFloat("fillSecondsP95", { nullable: true, description: "95th percentile of the same." }),
    feesUsd: t.exposeString("feesUsd", { description: "Quoted relayer + app fees in USD of the successful requests." }),
  }),
});

/** The window and groups checked: INVALID_INPUT for an empty, reversed or over-long window or a repeated group. */
function checkWindow(from: Date, to: Date, groupBy: RequestStatsGroup[]): void {
  if (to.getTime() <= from.getTime()) throw new InvalidInputError("INVALID_INPUT", "to must be after from");
  const days = (to.getTime() - from.getTime()) / DAY_MS;
  if (days > REQUEST_STATS_LIMITS.maxDays)
    throw new InvalidInputError("INVALID_INPUT", `from/to: at most ${REQUEST_STATS_LIMITS.maxDays} days`);
  if (groupBy.includes("HOUR") && days > REQUEST_STATS_LIMITS.maxHourlyDays) {
    throw new InvalidInputError("INVALID_INPUT", `groupBy HOUR: at most ${REQUEST_STATS_LIMITS.maxHourlyDays} days`);
  }
  if (new Set(groupBy).size !== groupBy.length)
    throw new InvalidInputError("INVALID_INPUT", "groupBy: each group at most once");
}

builder.queryFields((t) => ({
  requestStats: t.field({
    type: [RequestStatsBucketRef],
    description:
      "Analytics over the requests created in [from, to) that match the filter (the `requests` filter, with the same API-key rules), " +
      "one bucket per combination of the groupBy keys (ordered by them), or one bucket for the whole window without groupBy.",
    args: {
      filter: t.arg({ type: RequestFilterInput }),
      from: t.arg({ type: "DateTime", required: true }),
      to: t.arg({
        type: "DateTime",
        required: true,
        description: `Exclusive; at most ${REQUEST_STATS_LIMITS.maxDays} days after from (${REQUEST_STATS_LIMITS.maxHourlyDays} with HOUR).`,
      }),
      groupBy: t.arg({ type: [RequestStatsGroupEnum] }),
    },
    resolve: async (_, args, context) => {
      const caller = await requireApiKey(context);
      const groupBy = (args.groupBy ?? []) as RequestStatsGroup[];
      checkWindow(args.from, args.to, groupBy);
      const filter = await authorizeRequestFilter(
        context.db,
        visibleRequestFilter(args.filter as never, caller.integrator, context.registry),
        caller.integrator,
      );
      return requestStats(context.db, { filter, from: args.from, to: args.to, groupBy });
    },
  }),
}));
