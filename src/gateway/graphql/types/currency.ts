import type { Currency } from "../../../chains/chainRegistry.js";
import { builder } from "../builder.js";
import { ChainRef } from "./chainRef.js";

export const CurrencyMetadataRef = builder.objectRef<Currency["metadata"]>("CurrencyMetadata").implement({
  fields: (t) => ({
    logoURI: t.exposeString("logoURI"),
    verified: t.exposeBoolean("verified"),
    isNative: t.exposeBoolean("isNative"),
  }),
});

// Declared before it is implemented: Chain and Currency refer to each other.
export const CurrencyRef = builder.objectRef<Currency>("Currency");

CurrencyRef.implement({
  description: "A currency the service supports on one chain; the native currency has the all-zero address.",
  fields: (t) => ({
    chainId: t.exposeInt("chainId"),
    address: t.exposeString("address"),
    symbol: t.exposeString("symbol"),
    name: t.exposeString("name"),
    decimals: t.exposeInt("decimals"),
    metadata: t.field({ type: CurrencyMetadataRef, resolve: (currency) => currency.metadata }),
    chain: t.field({
      type: ChainRef,
      nullable: true,
      resolve: (currency, _, context) => context.registry.chain(currency.chainId) ?? null,
    }),
  }),
});
