import { chainConfigSchema } from "../../src/chains/chainConfig.js";
import { createChainRegistry } from "../../src/chains/chainRegistry.js";
import { TEST_BITCOIN_CHAIN } from "./testBitcoinChain.js";

/** Chain 10 with USDC (6 decimals) at 0x…c1, and a Bitcoin chain: where app fees may and may not be claimed. */
export const APP_FEE_TEST_USDC = "0x00000000000000000000000000000000000000C1";
export const appFeeTestRegistry = createChainRegistry([
  chainConfigSchema.parse({
    id: 10,
    name: "a",
    rpcUrl: "http://127.0.0.1:1",
    depository: "0x00000000000000000000000000000000000000d0",
    receiver: "0x00000000000000000000000000000000000000e0",
    currencies: [{ symbol: "USDC", address: APP_FEE_TEST_USDC.toLowerCase(), decimals: 6 }],
  }),
  TEST_BITCOIN_CHAIN,
]);
