import type { ChainConfig } from "./chainConfig.js";
import type { ChainFamily } from "./chainFamily.js";
import { currencyMetadata } from "./currencyMetadata.js";
import { FAMILIES } from "./families.js";
import { familyOfChain } from "./familyOfChain.js";

export type Currency = {
  chainId: number;
  /** As the chain's family shows it (EVM: checksummed); the native currency at the family's native id. */
  address: string;
  symbol: string;
  name: string;
  decimals: number;
  metadata: { logoURI: string; verified: boolean; isNative: boolean };
};

export type ChainRegistry = {
  chains: readonly ChainConfig[];
  chain(chainId: number): ChainConfig | undefined;
  chainByName(name: string): ChainConfig | undefined;
  /** A supported currency of a chain: the native one at its family's native id (EVM: 0x0), or a configured token. */
  currency(chainId: number, address: string): Currency | undefined;
  currencies(chainId: number): Currency[];
  /** The chain's wrapped native currency (its `wrapsNative` entry), which Wraps and Unwraps convert through. */
  wrappedNative(chainId: number): Currency | undefined;
  /** The family of a configured chain: what it can do, what it publishes, how it reads addresses and hashes. */
  family(chain: ChainConfig): ChainFamily<ChainConfig>;
};

function nativeCurrency(chain: ChainConfig, family: ChainFamily<ChainConfig>): Currency {
  return {
    chainId: chain.id,
    address: family.codecOf(chain).nativeCurrency,
    symbol: chain.nativeCurrency.symbol,
    name: chain.nativeCurrency.name,
    decimals: chain.nativeCurrency.decimals,
    metadata: currencyMetadata(chain.nativeCurrency, true),
  };
}

/**
 * The registry of the configured chains, each read by its family among `families` (FAMILIES; a test composition may
 * add its own).
 */
export function createChainRegistry(
  chains: readonly ChainConfig[],
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each family reads only chains of its vmType
  families: readonly ChainFamily<any>[] = FAMILIES,
): ChainRegistry {
  const family = (chain: ChainConfig) => familyOfChain(chain, families);
  const familyOf = (chain: ChainConfig) => family(chain).codecOf(chain);
  // The chain's configured currencies besides the native one, as its family reads its entry.
  const tokensOf = (chain: ChainConfig) => family(chain).publicFields(chain).tokens;
  const byId = new Map(chains.map((chain) => [chain.id, chain]));
  const byName = new Map(chains.map((chain) => [chain.name, chain]));
  const wrapped = new Map(
    chains.flatMap((chain) => {
      const entry = tokensOf(chain).find((currency) => currency.wrapsNative);
      return entry ? [[chain.id, familyOf(chain).address.key(entry.address)] as const] : [];
    }),
  );
  const currencies = new Map<number, Currency[]>(
    chains.map((chain) => [
      chain.id,
      [
        nativeCurrency(chain, family(chain)),
        ...tokensOf(chain).map((currency) => ({
          chainId: chain.id,
          address: familyOf(chain).address.parse(currency.address)!,
          symbol: currency.symbol,
          name: currency.name ?? currency.symbol,
          decimals: currency.decimals,
          metadata: currencyMetadata(currency, false),
        })),
      ],
    ]),
  );
  return {
    chains,
    chain: (chainId) => byId.get(chainId),
    chainByName: (name) => byName.get(name),
    currency(chainId, address) {
      const chain = byId.get(chainId);
      if (!chain) return undefined;
      // Bitcoin's native id is no address, so it is matched as it is written.
      if (address === familyOf(chain).nativeCurrency) return currencies.get(chainId)?.[0];
      const codec = familyOf(chain).address;
      const parsed = codec.parse(address);
      if (parsed === undefined) return undefined;
      const wanted = codec.key(parsed);
      return currencies.get(chainId)?.find((currency) => codec.key(currency.address) === wanted);
    },
    currencies: (chainId) => currencies.get(chainId) ?? [],
    wrappedNative(chainId) {
      const key = wrapped.get(chainId);
      const chain = byId.get(chainId);
      if (key === undefined || !chain) return undefined;
      return currencies.get(chainId)?.find((currency) => familyOf(chain).address.key(currency.address) === key);
    },
    family,
  };
}
