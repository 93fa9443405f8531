import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { devnetDepositAddressKey } from "../../devnet/bitcoin/devnetDepositAddressKey.js";
import { GRAPHQL_TEST_CHAINS } from "../../test/support/createTestGraphqlServer.js";
import { TEST_BITCOIN_CHAIN } from "../../test/support/testBitcoinChain.js";
import { parseFamilyKeys } from "../../src/config.js";
import { FAMILY_KEY_SCHEMAS } from "./factories.js";
import { familyAdapters, roleAdapterKeys } from "./familyAdapters.js";

const account = devnetDepositAddressKey();
const solverKey = generatePrivateKey();
const env = {
  SOLVER_PRIVATE_KEY: solverKey,
  SOLVER_ADDRESS: privateKeyToAccount(solverKey).address,
  BITCOIN_DEPOSITORY_WIF: "depository-wif",
  BITCOIN_SOLVER_WIF: "solver-wif",
  BITCOIN_DEPOSIT_XPUB: account.xpub,
  BITCOIN_DEPOSIT_XPRV: account.xprv,
  BITCOIN_MAX_FEE_RATE_SAT_VB: "40",
};

describe("roleAdapterKeys", () => {
  it("gives the gateway only the deposit-address account's public key, the worker the signing keys", async () => {
    const keys = parseFamilyKeys(env, FAMILY_KEY_SCHEMAS);
    const api = roleAdapterKeys(keys, "api");
    const worker = roleAdapterKeys(keys, "worker");
    expect(api.bvm).toEqual({ depositAddressKey: account.xpub, maxFeeRateSatVb: 40 });
    expect(worker.bvm).toEqual({
      depositoryWif: "depository-wif",
      solverWif: "solver-wif",
      depositAddressKey: account.xprv,
      maxFeeRateSatVb: 40,
    });
    expect(api.evm?.solver.address).toBe(worker.evm?.solver.address);
    // The gateway knows the EVM solver's address, and cannot sign with it.
    await expect(api.evm!.solver.signMessage({ message: "anything" })).rejects.toThrow(/only the solver's address/);
    await expect(worker.evm!.solver.signMessage({ message: "anything" })).resolves.toMatch(/^0x/);
    expect(api.evm?.orderSigner).toBeUndefined();
  });

  it("refuses the worker without the EVM solver's key and the gateway without its address, naming each variable", () => {
    const keys = parseFamilyKeys({}, FAMILY_KEY_SCHEMAS);
    expect(() => roleAdapterKeys(keys, "worker")).toThrow(/SOLVER_PRIVATE_KEY is required/);
    expect(() => roleAdapterKeys(keys, "api")).toThrow(/SOLVER_ADDRESS is required/);
    const withSigner = parseFamilyKeys(
      { SOLVER_ADDRESS: env.SOLVER_ADDRESS, ORDER_SIGNER_URL: "http://127.0.0.1:4003" },
      FAMILY_KEY_SCHEMAS,
    );
    expect(() => roleAdapterKeys(withSigner, "api")).toThrow(/ORDER_SIGNER_TOKEN is required with ORDER_SIGNER_URL/);
  });
});

describe("familyAdapters", () => {
  it("makes each chain's adapter with its family's factory and keys", () => {
    const keys = roleAdapterKeys(parseFamilyKeys(env, FAMILY_KEY_SCHEMAS), "api");
    const adapters = familyAdapters([...GRAPHQL_TEST_CHAINS, TEST_BITCOIN_CHAIN], keys);
    expect(adapters.all("quoter").map((adapter) => [adapter.chain.id, adapter.vmType])).toEqual([
      ...GRAPHQL_TEST_CHAINS.map((chain) => [chain.id, "evm"]),
      [TEST_BITCOIN_CHAIN.id, "bvm"],
    ]);
    expect(adapters.quoter(GRAPHQL_TEST_CHAINS[0].id).solverAddress).toBe(keys.evm?.solver.address);
    // The gateway's Bitcoin adapter derives deposit addresses from the account key it was given.
    expect(adapters.quoterOf(TEST_BITCOIN_CHAIN.id)?.depositAddressFor).toBeDefined();
    expect(familyAdapters([TEST_BITCOIN_CHAIN], {}).quoterOf(TEST_BITCOIN_CHAIN.id)?.depositAddressFor).toBeUndefined();
  });
});
