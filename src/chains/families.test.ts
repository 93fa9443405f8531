import { describe, expect, it } from "vitest";
import { chainConfigSchema } from "./chainConfig.js";
import { FAMILIES } from "./families.js";
import { familyOfChain } from "./familyOfChain.js";

const evm = chainConfigSchema.parse({
  id: 31337,
  name: "devnet-a",
  rpcUrl: "http://127.0.0.1:8545",
  publicRpcUrl: "https://rpc.example",
  depository: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
  receiver: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
  currencies: [{ symbol: "USDC", address: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0", decimals: 6 }],
});
const bitcoin = chainConfigSchema.parse({
  id: 8253038,
  vmType: "bvm",
  name: "bitcoin",
  network: "regtest",
  esploraUrl: "http://127.0.0.1:3002",
  depository: "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080",
});

describe("FAMILIES", () => {
  it("registers each vmType once, and the chains file takes an entry of each", () => {
    const vmTypes = FAMILIES.map((family) => family.vmType);
    expect(new Set(vmTypes).size).toBe(vmTypes.length);
    expect([evm.vmType, bitcoin.vmType]).toEqual(["evm", "bvm"]);
  });

  it("finds a chain's family, and refuses a vmType no family has", () => {
    expect(familyOfChain(evm).vmType).toBe("evm");
    expect(familyOfChain(bitcoin).vmType).toBe("bvm");
    expect(() => familyOfChain({ vmType: "nothing" })).toThrow("no chain family nothing");
    const extra = { ...FAMILIES[0], vmType: "testvm" } as never;
    expect(familyOfChain({ vmType: "testvm" }, [...FAMILIES, extra])).toBe(extra);
  });

  it("says what each family's chains can do", () => {
    expect(familyOfChain(evm).capabilities(evm)).toMatchObject({
      sameChain: true,
      appFees: true,
      depositAddresses: false,
    });
    const btc = familyOfChain(bitcoin).capabilities(bitcoin);
    expect(btc).toMatchObject({
      sameChain: false,
      appFees: false,
      depositAddresses: true,
      refundUnmatchedAfterBlocks: 144,
    });
    expect(btc.destinationRefusal).toContain("names no Bitcoin solver wallet");
    expect(btc.destinationCallsRefusal).toBeDefined();
    const withSolver = { ...bitcoin, solver: "bcrt1q9wwvrjs0wrl7t2dj2y8kyjdaf7vsz4cg6u7rxl" };
    expect(familyOfChain(withSolver).capabilities(withSolver).destinationRefusal).toBeUndefined();
  });

  it("gives the public chain fields GET /chains and GraphQL show", () => {
    expect(familyOfChain(evm).publicFields(evm)).toMatchObject({
      publicRpcUrl: "https://rpc.example",
      publicWsUrl: undefined,
      receiver: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
      tokens: [{ symbol: "USDC" }],
    });
    expect(familyOfChain(bitcoin).publicFields(bitcoin)).toEqual({
      publicRpcUrl: undefined,
      publicWsUrl: undefined,
      receiver: "bc1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqmql8k8",
      tokens: [],
    });
  });
});
