import type { ChainRegistry } from "../../../chains/chainRegistry.js";
import { hidePrivateChains } from "../../../requests/hidePrivateChains.js";
import { searchTerm } from "../../rest/searchTerm.js";
import { InvalidInputError, UnauthorizedError } from "../../../domain/errors.js";
import { fieldValue } from "../../rest/fieldValues.js";
import { REQUEST_STATUSES } from "../../../domain/requestStatus.js";
import { parseRequestsV3Query } from "../../rest/parseRequestsQuery.js";
import {
  FIELD_KEYS,
  type FieldCondition,
  type FieldKey,
  type RequestFilter,
  emptyFilter,
} from "../../../../schema/requestFilter.js";
import { builder } from "../builder.js";

// The same fields as GET /requests/v3's filter language; each takes a list of values, OR-ed.
const TEXT_FIELDS = [
  "id",
  "orderId",
  "user",
  "recipient",
  "depositAddress",
  "status",
  "failReason",
  "refundFailReason",
  "apiKey",
  "requestType",
  "referrer",
  "currencyInAddress",
  "currencyOutAddress",
  "currencyInSymbol",
  "currencyOutSymbol",
  "depositTxHash",
  "fillTxHash",
  "refundTxHash",
] as const satisfies readonly FieldKey[];
const CHAIN_FIELDS = [
  "originChainId",
  "destinationChainId",
  "chainId",
  "currencyInChainId",
  "currencyOutChainId",
] as const satisfies readonly FieldKey[];
const MAX_VALUES = 50;
const MAX_GROUPS = 10;

// Top-level only, as in REST; the names and values of GET /requests/v3's range parameters.
const BLOCK_AND_USD_RANGES = [
  "startBlock",
  "endBlock",
  "amountUsdMin",
  "amountUsdMax",
  "appFeesAmountUsdMin",
  "appFeesAmountUsdMax",
] as const;
const SECONDS_RANGES = ["fillTimeMin", "fillTimeMax"] as const;

type Conditions = { [K in (typeof TEXT_FIELDS)[number]]?: string[] | null } & {
  [K in (typeof CHAIN_FIELDS)[number]]?: number[] | null;
};
type NullChecks = { isNull?: FieldKey[] | null; isNotNull?: FieldKey[] | null };
type Group = Conditions & NullChecks & { not?: Conditions | null };
type FilterInput = Group & {
  anyOf?: Group[] | null;
  term?: string | null;
  createdFrom?: Date | null;
  createdTo?: Date | null;
  features?: string[] | null;
  myIntegrator?: boolean | null;
  includeChildRequests?: boolean | null;
  privateChainsToInclude?: string[] | null;
} & { [K in (typeof BLOCK_AND_USD_RANGES)[number]]?: string | null } & {
  [K in (typeof SECONDS_RANGES)[number]]?: number | null;
};

const conditionFields = (
  t: PothosSchemaTypes.InputFieldBuilder<PothosSchemaTypes.ExtendDefaultTypes<never>, "InputObject">,
) => ({
  ...Object.fromEntries(TEXT_FIELDS.map((field) => [field, t.stringList()])),
  ...Object.fromEntries(CHAIN_FIELDS.map((field) => [field, t.intList()])),
});

const RequestFilterField = builder.enumType("RequestFilterField", {
  description: "A field of the filter language, for null checks.",
  values: FIELD_KEYS,
});

// GraphQL lists cannot carry a null value ("not given"), so the spec's null checks are named explicitly.
const nullCheckFields = (
  t: PothosSchemaTypes.InputFieldBuilder<PothosSchemaTypes.ExtendDefaultTypes<never>, "InputObject">,
) => ({
  isNull: t.field({
    type: [RequestFilterField] as never,
    description: 'Fields that must be empty (REST: `{"field": null}` in filters).',
  }),
  isNotNull: t.field({
    type: [RequestFilterField] as never,
    description: 'Fields that must be present (REST: `{"not:field": null}`).',
  }),
});

export const RequestConditionsInput = builder.inputType("RequestConditionsInput", {
  description:
    "Field conditions, AND-ed; the values of one field are OR-ed. Same fields and values as GET /requests/v3.",
  fields: (t) => conditionFields(t as never) as never,
});

const RequestGroupInput = builder.inputType("RequestGroupInput", {
  description: "One alternative of `anyOf`: its conditions AND-ed, `not` negating each of its own.",
  fields: (t) =>
    ({
      ...(conditionFields(t as never) as object),
      ...nullCheckFields(t as never),
      not: t.field({ type: RequestConditionsInput }),
    }) as never,
});

export const RequestFilterInput = builder.inputType("RequestFilterInput", {
  description:
    "The /requests/v3 filter language, typed: field conditions (AND), `not` (each negated), null checks, `anyOf` (OR of groups, like `filters`), `term`, and, top level only as in REST, the ranges and `features`.",
  fields: (t) =>
    ({
      ...(conditionFields(t as never) as object),
      ...nullCheckFields(t as never),
      not: t.field({ type: RequestConditionsInput }),
      anyOf: t.field({ type: [RequestGroupInput] }),
      term: t.string({ description: "Any request id, wallet or transaction hash." }),
      createdFrom: t.field({ type: "DateTime", description: "startTimestamp of REST, inclusive." }),
      createdTo: t.field({ type: "DateTime", description: "endTimestamp of REST, inclusive (to the second)." }),
      startBlock: t.string({ description: "Origin deposit block, inclusive; a decimal integer." }),
      endBlock: t.string({ description: "Origin deposit block, inclusive; a decimal integer." }),
      amountUsdMin: t.string({ description: "USD, a decimal string." }),
      amountUsdMax: t.string({ description: "USD, a decimal string." }),
      appFeesAmountUsdMin: t.string({ description: "USD, a decimal string." }),
      appFeesAmountUsdMax: t.string({ description: "USD, a decimal string." }),
      fillTimeMin: t.int({ description: "Seconds from deposit to fill." }),
      fillTimeMax: t.int({ description: "Seconds from deposit to fill." }),
      features: t.stringList({
        description:
          "Requests having every one of these: gasless_execution, fast_fill, gas_top_up, app_fees, deposit_address, sponsored.",
      }),
      includeChildRequests: t.boolean({
        description:
          "Listings: true also lists child requests (further payments of one quote, refunded as DOUBLE_SPEND), as REST's includeChildRequests; default false. Analytics (requestStats) always count them, as the requests they are.",
      }),
      privateChainsToInclude: t.stringList({
        description:
          "UUIDs of private chains whose requests are included, as REST's privateChainsToInclude; the requests of the other private chains are left out.",
      }),
      myIntegrator: t.boolean({
        description:
          "true: only requests quoted with any API key of the caller's integrator, revoked keys included (the dashboard's scope, for any number of keys; `apiKey` takes at most 50). Like a top-level apiKey, it allows a referrer filter.",
      }),
    }) as never,
});

function conditionsOf(input: Conditions | null | undefined, negate: boolean, path: string): FieldCondition[] {
  if (!input) return [];
  const conditions: FieldCondition[] = [];
  for (const field of [...TEXT_FIELDS, ...CHAIN_FIELDS]) {
    const values = input[field];
    if (values === null || values === undefined) continue;
    if (values.length === 0 || values.length > MAX_VALUES)
      throw new InvalidInputError("INVALID_INPUT", `${path}.${field}: give 1 to ${MAX_VALUES} values`);
    conditions.push({
      field,
      negate,
      // Every status, waiting and submitted too: REST keeps the spec's five (LISTABLE_STATUSES).
      values: values.map((value, index) => fieldValue(field, `${path}.${field}[${index}]`, value, REQUEST_STATUSES)),
    });
  }
  return conditions;
}

/** isNull/isNotNull → null-check conditions; as in REST, a null check cannot be mixed with values of the same field. */
function nullChecksOf(input: Group, path: string): FieldCondition[] {
  const checks = [
    ...[...new Set(input.isNull ?? [])].map((field) => ({ field, negate: false, values: null })),
    ...[...new Set(input.isNotNull ?? [])].map((field) => ({ field, negate: true, values: null })),
  ];
  const mixed = checks.find((check) => !check.negate && input[check.field as keyof Conditions] != null);
  if (mixed)
    throw new InvalidInputError(
      "INVALID_INPUT",
      `${path}.isNull: ${mixed.field} is also given values; a null check cannot be mixed with values (use anyOf for either)`,
    );
  return checks;
}

/** The ranges and features, validated and parsed by GET /requests/v3's own parser (errors name `filter.<field>`). */
function rangesOf(
  input: FilterInput,
): Pick<RequestFilter, "originBlock" | "amountUsd" | "appFeesUsd" | "fillTimeSeconds" | "features"> {
  const params: Record<string, string[]> = {};
  for (const name of [...BLOCK_AND_USD_RANGES, ...SECONDS_RANGES]) {
    if (input[name] !== null && input[name] !== undefined) params[name] = [String(input[name])];
  }
  if (input.features) params.features = [input.features.join(",")];
  try {
    const { originBlock, amountUsd, appFeesUsd, fillTimeSeconds, features } = parseRequestsV3Query(params).filter;
    return { originBlock, amountUsd, appFeesUsd, fillTimeSeconds, features };
  } catch (error) {
    if (error instanceof InvalidInputError) throw new InvalidInputError("INVALID_INPUT", `filter.${error.message}`);
    throw error;
  }
}

/**
 * The typed GraphQL filter → the listing module's RequestFilter, every value validated as REST validates it;
 * `myIntegrator` becomes the caller's integrator (the caller's key decides it, never the input).
 */
export function toRequestFilter(input: FilterInput | null | undefined, callerIntegrator?: string): RequestFilter {
  const filter = emptyFilter();
  if (!input) return filter;
  filter.includeChildRequests = input.includeChildRequests === true;
  if (input.myIntegrator) {
    if (callerIntegrator === undefined) throw new UnauthorizedError("filter.myIntegrator: an API key is required");
    filter.integrator = callerIntegrator;
  }
  filter.conditions = [
    ...conditionsOf(input, false, "filter"),
    ...conditionsOf(input.not, true, "filter.not"),
    ...nullChecksOf(input, "filter"),
  ];
  const groups = input.anyOf ?? [];
  if (groups.length > MAX_GROUPS)
    throw new InvalidInputError("INVALID_INPUT", `filter.anyOf: at most ${MAX_GROUPS} groups`);
  filter.groups = groups.map((group, index) => {
    const path = `filter.anyOf[${index}]`;
    return [
      ...conditionsOf(group, false, path),
      ...conditionsOf(group.not, true, `${path}.not`),
      ...nullChecksOf(group, path),
    ];
  });
  if (filter.groups.some((group) => group.length === 0))
    throw new InvalidInputError("INVALID_INPUT", "filter.anyOf: every group needs a condition");
  if (input.term !== null && input.term !== undefined) {
    const term = input.term.trim();
    if (term === "" || term.length > 200)
      throw new InvalidInputError("INVALID_INPUT", "filter.term: a non-empty string of at most 200 characters");
    filter.term = searchTerm(term);
  }
  const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
  if (input.createdFrom) filter.createdAt.min = seconds(input.createdFrom);
  if (input.createdTo) filter.createdAt.max = seconds(input.createdTo);
  if (
    filter.createdAt.min !== undefined &&
    filter.createdAt.max !== undefined &&
    filter.createdAt.min > filter.createdAt.max
  ) {
    throw new InvalidInputError("INVALID_INPUT", "filter.createdFrom must not be after filter.createdTo");
  }
  return { ...filter, ...rangesOf(input) };
}

/** toRequestFilter, with the private chains the input does not name left out (hidePrivateChains). */
export function visibleRequestFilter(
  input: FilterInput | null | undefined,
  callerIntegrator: string | undefined,
  registry: Pick<ChainRegistry, "chains">,
): RequestFilter {
  return hidePrivateChains(
    toRequestFilter(input, callerIntegrator),
    registry,
    input?.privateChainsToInclude ?? [],
    "filter.privateChainsToInclude",
  );
}
