import { useEffect, useState } from "preact/hooks";
import { graphqlRequest } from "./graphqlRequest";
import { CHAINS } from "./queries";
import type { Chain } from "./types";

let loaded: Promise<Chain[]> | undefined;

/** The service's chains, fetched once per page load; empty until they arrive. */
export function useChains(): Chain[] {
  const [chains, setChains] = useState<Chain[]>([]);
  useEffect(() => {
    loaded ??= graphqlRequest<{ chains: Chain[] }>(CHAINS).then((data) => data.chains);
    loaded.then(setChains, () => (loaded = undefined));
  }, []);
  return chains;
}
