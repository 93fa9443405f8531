import { bitcoinChainConfigSchema } from "../../src/chains/chainConfig.js";

/** A regtest address (BIP173's test vector key), valid as the depository of a regtest chain. */
export const REGTEST_ADDRESS = "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080";

/** A Bitcoin chain as a chains file gives it, with the defaults filled in. */
export const TEST_BITCOIN_CHAIN = bitcoinChainConfigSchema.parse({
  id: 8253038,
  name: "bitcoin-regtest",
  vmType: "bvm",
  network: "regtest",
  esploraUrl: "http://127.0.0.1:1",
  depository: REGTEST_ADDRESS,
});
