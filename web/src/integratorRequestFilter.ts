/** The requests page's filter form, as typed. */
export type RequestFilterForm = {
  statuses: string[];
  originChainId: string;
  destinationChainId: string;
  currencyIn: string;
  currencyOut: string;
  /** `datetime-local` values, in the browser's time zone. */
  from: string;
  to: string;
  referrer: string;
  term: string;
  /** One key id, or "" for every key of the integrator. */
  apiKey: string;
};

export const EMPTY_FILTER_FORM: RequestFilterForm = {
  statuses: [],
  originChainId: "",
  destinationChainId: "",
  currencyIn: "",
  currencyOut: "",
  from: "",
  to: "",
  referrer: "",
  term: "",
  apiKey: "",
};

const list = (text: string) =>
  text
    .split(",")
    .map((value) => value.trim())
    .filter(Boolean);

/**
 * The GraphQL RequestFilterInput of the form: always scoped to the signed-in key's integrator (`myIntegrator`: any
 * number of keys, revoked ones included), which also makes the referrer filter allowed, and to one key when chosen;
 * child requests included, so the list counts what the analytics count;
 * empty fields are left out; symbols and referrers take comma-separated lists.
 */
export function integratorRequestFilter(form: RequestFilterForm): Record<string, unknown> {
  const filter: Record<string, unknown> = { myIntegrator: true, includeChildRequests: true };
  if (form.apiKey) filter.apiKey = [form.apiKey];
  if (form.statuses.length) filter.status = form.statuses;
  if (form.originChainId) filter.originChainId = [Number(form.originChainId)];
  if (form.destinationChainId) filter.destinationChainId = [Number(form.destinationChainId)];
  if (list(form.currencyIn).length) filter.currencyInSymbol = list(form.currencyIn);
  if (list(form.currencyOut).length) filter.currencyOutSymbol = list(form.currencyOut);
  if (list(form.referrer).length) filter.referrer = list(form.referrer);
  if (form.term.trim()) filter.term = form.term.trim();
  if (form.from) filter.createdFrom = new Date(form.from).toISOString();
  if (form.to) filter.createdTo = new Date(form.to).toISOString();
  return filter;
}
