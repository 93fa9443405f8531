import { InvalidInputError } from "../../../domain/errors.js";
import { fieldValue } from "../../../requests/fieldValues.js";
import { type FieldCondition, type FieldKey, type RequestFilter, emptyFilter } from "../../../requests/requestFilter.js";
import { builder } from "../builder.js";

// The same fields as GET /requests/v3's filter language; each takes a list of values, OR-ed.
const TEXT_FIELDS = [
  "id", "orderId", "user", "recipient", "depositAddress", "status", "failReason", "refundFailReason", "apiKey", "requestType",
  "referrer", "currencyInAddress", "currencyOutAddress", "currencyInSymbol", "currencyOutSymbol", "depositTxHash", "fillTxHash",
  "refundTxHash",
] as const satisfies readonly FieldKey[];
const CHAIN_FIELDS = ["originChainId", "destinationChainId", "chainId", "currencyInChainId", "currencyOutChainId"] as const satisfies readonly FieldKey[];
const MAX_VALUES = 50;
const MAX_GROUPS = 10;

type Conditions = { [K in (typeof TEXT_FIELDS)[number]]?: string[] | null } & { [K in (typeof CHAIN_FIELDS)[number]]?: number[] | null };
type FilterInput = Conditions & {
  not?: Conditions | null;
  anyOf?: Array<Conditions & { not?: Conditions | null }> | null;
  term?: string | null;
  createdFrom?: Date | null;
  createdTo?: Date | null;
};

const conditionFields = (t: PothosSchemaTypes.InputFieldBuilder<PothosSchemaTypes.ExtendDefaultTypes<never>, "InputObject">) => ({
  ...Object.fromEntries(TEXT_FIELDS.map((field) => [field, t.stringList()])),
  ...Object.fromEntries(CHAIN_FIELDS.map((field) => [field, t.intList()])),
});

export const RequestConditionsInput = builder.inputType("RequestConditionsInput", {
  description: "Field conditions, AND-ed; the values of one field are OR-ed. Same fields and values as GET /requests/v3.",
  fields: (t) => conditionFields(t as never) as never,
});

const RequestGroupInput = builder.inputType("RequestGroupInput", {
  description: "One alternative of `anyOf`: its conditions AND-ed, `not` negating each of its own.",
  fields: (t) => ({ ...(conditionFields(t as never) as object), not: t.field({ type: RequestConditionsInput }) }) as never,
});

export const RequestFilterInput = builder.inputType("RequestFilterInput", {
  description:
    "The /requests/v3 filter language, typed: field conditions (AND), `not` (each negated), `anyOf` (OR of groups, like `filters`), `term`, and a creation window.",
  fields: (t) =>
    ({
      ...(conditionFields(t as never) as object),
      not: t.field({ type: RequestConditionsInput }),
      anyOf: t.field({ type: [RequestGroupInput] }),
      term: t.string({ description: "Any request id, wallet or transaction hash." }),
      createdFrom: t.field({ type: "DateTime" }),
      createdTo: t.field({ type: "DateTime" }),
    }) as never,
});

function conditionsOf(input: Conditions | null | undefined, negate: boolean, path: string): FieldCondition[] {
  if (!input) return [];
  const conditions: FieldCondition[] = [];
  for (const field of [...TEXT_FIELDS, ...CHAIN_FIELDS]) {
    const values = input[field];
    if (values === null || values === undefined) continue;
    if (values.length === 0 || values.length > MAX_VALUES) throw new InvalidInputError("INVALID_INPUT", `${path}.${field}: give 1 to ${MAX_VALUES} values`);
    conditions.push({ field, negate, values: values.map((value, index) => fieldValue(field, `${path}.${field}[${index}]`, value)) });
  }
  return conditions;
}

/** The typed GraphQL filter → the listing module's RequestFilter, every value validated as REST validates it. */
export function toRequestFilter(input: FilterInput | null | undefined): RequestFilter {
  const filter = emptyFilter();
  if (!input) return filter;
  filter.conditions = [...conditionsOf(input, false, "filter"), ...conditionsOf(input.not, true, "filter.not")];
  const groups = input.anyOf ?? [];
  if (groups.length > MAX_GROUPS) throw new InvalidInputError("INVALID_INPUT", `filter.anyOf: at most ${MAX_GROUPS} groups`);
  filter.groups = groups.map((group, index) => [...conditionsOf(group, false, `filter.anyOf[${index}]`), ...conditionsOf(group.not, true, `filter.anyOf[${index}].not`)]);
  if (filter.groups.some((group) => group.length === 0)) throw new InvalidInputError("INVALID_INPUT", "filter.anyOf: every group needs a condition");
  if (input.term !== null && input.term !== undefined) {
    const term = input.term.trim();
    if (term === "" || term.length > 200) throw new InvalidInputError("INVALID_INPUT", "filter.term: a non-empty string of at most 200 characters");
    filter.term = term;
  }
  const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
  if (input.createdFrom) filter.createdAt.min = seconds(input.createdFrom);
  if (input.createdTo) filter.createdAt.max = seconds(input.createdTo);
  if (filter.createdAt.min !== undefined && filter.createdAt.max !== undefined && filter.createdAt.min > filter.createdAt.max) {
    throw new InvalidInputError("INVALID_INPUT", "filter.createdFrom must not be after filter.createdTo");
  }
  return filter;
}
