import type { ApiKeyRecord } from "../../schema/apiKeys.js";
import type { QuoteCaller } from "./quoteEngineDeps.js";

/** The caller of a quote made with this key (none: an anonymous caller, priced normally, who sponsors nothing). */
export function quoteCallerOf(key: ApiKeyRecord | undefined): QuoteCaller {
  if (!key) return {};
  return {
    apiKeyId: key.id,
    integrator: key.integrator,
    sponsors: key.sponsors,
    ...(key.oraclePricingBps !== null ? { oraclePricingBps: key.oraclePricingBps } : {}),
  };
}
