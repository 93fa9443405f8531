import type { ChainAdapter } from "../../src/chains/adapter.js";
import type { ChainAdapters } from "../../src/chains/chainAdapters.js";

/**
 * ChainAdapters over hand-made adapters, for a unit test: `adapterOf` answers a chain's stand-in (the members the
 * code under test calls), which plays every role; a chain it answers undefined for has none.
 */
export function fakeChainAdapters(adapterOf: (chainId: number) => object | undefined): ChainAdapters {
  const of = (chainId: number) => adapterOf(chainId) as ChainAdapter | undefined;
  const required = (chainId: number) => {
    const adapter = of(chainId);
    if (!adapter) throw new Error(`chain ${chainId} has no adapter in this test`);
    return adapter;
  };
  return {
    all: () => [],
    quoterOf: of,
    depositsOf: of,
    solverOf: of,
    refunderOf: of,
    quoter: required,
    deposits: required,
    solver: required,
    refunder: required,
    anyAddressKey: () => undefined,
  };
}
