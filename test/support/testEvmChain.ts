import { type ChainConfig, chainConfigSchema } from "../../src/chains/chainConfig.js";

/** An EVM chain as a chains file gives it (unreachable RPC), with the defaults filled in. */
export function testEvmChain(id: number): ChainConfig {
  return chainConfigSchema.parse({
    id,
    name: `chain-${id}`,
    rpcUrl: "http://127.0.0.1:1",
    blockTimeSeconds: 1,
    depository: "0x00000000000000000000000000000000000000d0",
    receiver: "0x00000000000000000000000000000000000000e0",
  });
}
