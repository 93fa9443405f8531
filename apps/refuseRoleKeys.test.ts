import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { devnetDepositAddressKey } from "../devnet/bitcoin/devnetDepositAddressKey.js";
import { parseFamilyKeys } from "../src/config.js";
import { FAMILY_KEY_SCHEMAS } from "./families/factories.js";
import { refuseRoleKeys } from "./refuseRoleKeys.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const account = devnetDepositAddressKey();
const solverKey = generatePrivateKey();
const orderSigner = { ORDER_SIGNER_URL: "http://127.0.0.1:4003", ORDER_SIGNER_TOKEN: "t".repeat(32) };
const gatewayEnv = {
  SOLVER_ADDRESS: privateKeyToAccount(solverKey).address,
  ...orderSigner,
  BITCOIN_DEPOSIT_XPUB: account.xpub,
};
const signingKeys = {
  SOLVER_PRIVATE_KEY: solverKey,
  BITCOIN_SOLVER_WIF: "solver-wif",
  BITCOIN_DEPOSIT_XPRV: account.xprv,
  SOLANA_DEPOSITORY_SECRET_KEY: "4".repeat(88),
  PERPS_SOLVER_PRIVATE_KEY: generatePrivateKey(),
};

/** `crossfill <args>` with only `env` (and PATH): a role that refuses its keys exits before it connects to anything. */
function crossfill(args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, ["--import", "tsx", "apps/cli.ts", ...args], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? "", ...env },
    encoding: "utf8",
    timeout: 80_000,
  });
}

describe("refuseRoleKeys", () => {
  it("lets the gateway hold the solver's address, the order signer's token and the xpub, and the worker everything", () => {
    expect(() => refuseRoleKeys(parseFamilyKeys(gatewayEnv, FAMILY_KEY_SCHEMAS), "api")).not.toThrow();
    const everything = parseFamilyKeys({ ...gatewayEnv, ...signingKeys }, FAMILY_KEY_SCHEMAS);
    expect(() => refuseRoleKeys(everything, "worker")).not.toThrow();
  });

  it("refuses the gateway any key only the worker signs with, the EVM solver's first, naming each variable", () => {
    const keys = parseFamilyKeys({ ...gatewayEnv, ...signingKeys }, FAMILY_KEY_SCHEMAS);
    expect(() => refuseRoleKeys(keys, "api")).toThrow(
      "crossfill api refuses to start holding SOLVER_PRIVATE_KEY, BITCOIN_SOLVER_WIF, BITCOIN_DEPOSIT_XPRV, SOLANA_DEPOSITORY_SECRET_KEY, PERPS_SOLVER_PRIVATE_KEY:",
    );
  });

  it("refuses an indexer every signing key and the order signer's token, and lets it hold public keys", () => {
    const keys = parseFamilyKeys({ ...gatewayEnv, ...signingKeys }, FAMILY_KEY_SCHEMAS);
    expect(() => refuseRoleKeys(keys, "indexer")).toThrow(
      "crossfill indexer refuses to start holding SOLVER_PRIVATE_KEY, ORDER_SIGNER_TOKEN, BITCOIN_SOLVER_WIF, BITCOIN_DEPOSIT_XPRV, SOLANA_DEPOSITORY_SECRET_KEY, PERPS_SOLVER_PRIVATE_KEY: signing keys",
    );
    const publicOnly = parseFamilyKeys(
      { SOLVER_ADDRESS: gatewayEnv.SOLVER_ADDRESS, BITCOIN_DEPOSIT_XPUB: account.xpub },
      FAMILY_KEY_SCHEMAS,
    );
    expect(() => refuseRoleKeys(publicOnly, "indexer")).not.toThrow();
  });

  it("crossfill api exits 1 given the EVM solver's key, before it connects to anything", () => {
    const run = crossfill(["api"], { ...gatewayEnv, SOLVER_PRIVATE_KEY: solverKey });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      "crossfill: crossfill api refuses to start holding SOLVER_PRIVATE_KEY: keys that move funds",
    );
  }, 90_000);

  it("crossfill indexer exits 1 given a solver, depository or order-signing key, naming it", () => {
    for (const [command, env, named] of [
      [
        "bitcoin",
        { SOLVER_PRIVATE_KEY: solverKey, SOLANA_DEPOSITORY_SECRET_KEY: signingKeys.SOLANA_DEPOSITORY_SECRET_KEY },
        "SOLVER_PRIVATE_KEY, SOLANA_DEPOSITORY_SECRET_KEY",
      ],
      ["evm", { ORDER_SIGNER_TOKEN: orderSigner.ORDER_SIGNER_TOKEN }, "ORDER_SIGNER_TOKEN"],
    ] as const) {
      const run = crossfill(["indexer", command], env);
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(`crossfill: crossfill indexer refuses to start holding ${named}: signing keys`);
    }
  }, 180_000);
});
