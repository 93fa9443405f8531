import type { ChainAdapters } from "../chains/chainAdapters.js";
import type { ReadinessCheck } from "./readinessProbe.js";

/** Each chain's node answers with its head (the endpoint the role quotes, fills or refunds through). */
export function chainReadiness(adapters: ChainAdapters): ReadinessCheck[] {
  return adapters.all("quoter").map((quoter) => ({
    name: `chain ${quoter.chain.id}`,
    check: async () => `head ${await quoter.headHeight()}`,
  }));
}
