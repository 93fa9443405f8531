import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { generatePrivateKey } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { devnetDepositAddressKey } from "../devnet/bitcoin/devnetDepositAddressKey.js";
import { parseFamilyKeys } from "../src/config.js";
import { FAMILY_KEY_SCHEMAS } from "./families/factories.js";
import { refuseRoleKeys } from "./refuseRoleKeys.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const account = devnetDepositAddressKey();
const gatewayEnv = { SOLVER_PRIVATE_KEY: generatePrivateKey(), BITCOIN_DEPOSIT_XPUB: account.xpub };
const signingKeys = {
  BITCOIN_SOLVER_WIF: "solver-wif",
  BITCOIN_DEPOSIT_XPRV: account.xprv,
  SOLANA_DEPOSITORY_SECRET_KEY: "4".repeat(88),
  PERPS_SOLVER_PRIVATE_KEY: generatePrivateKey(),
};

describe("refuseRoleKeys", () => {
  it("lets the gateway hold what it signs orders and derives addresses with, and the worker everything", () => {
    expect(() => refuseRoleKeys(parseFamilyKeys(gatewayEnv, FAMILY_KEY_SCHEMAS), "api")).not.toThrow();
    const everything = parseFamilyKeys({ ...gatewayEnv, ...signingKeys }, FAMILY_KEY_SCHEMAS);
    expect(() => refuseRoleKeys(everything, "worker")).not.toThrow();
  });

  it("refuses the gateway any key only the worker signs with, naming each variable", () => {
    const keys = parseFamilyKeys({ ...gatewayEnv, ...signingKeys }, FAMILY_KEY_SCHEMAS);
    expect(() => refuseRoleKeys(keys, "api")).toThrow(
      "crossfill api refuses to start holding BITCOIN_SOLVER_WIF, BITCOIN_DEPOSIT_XPRV, SOLANA_DEPOSITORY_SECRET_KEY, PERPS_SOLVER_PRIVATE_KEY:",
    );
  });

  it("crossfill api exits 1 with that message before it connects to anything", () => {
    const run = spawnSync(process.execPath, ["--import", "tsx", "apps/cli.ts", "api"], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? "", ...gatewayEnv, BITCOIN_SOLVER_WIF: "solver-wif" },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      "crossfill: crossfill api refuses to start holding BITCOIN_SOLVER_WIF: keys that move funds",
    );
  }, 40_000);
});
