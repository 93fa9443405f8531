import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { contractsDir } from "./compileContracts.js";
import { generateArtifacts } from "./generateArtifacts.js";
import { callTargetAbi, depositoryAbi, receiverAbi, testTokenAbi } from "./abis.js";

describe("contracts/artifacts.ts", () => {
  it("matches a fresh compile of the sources (run `npm run contracts:build` if not)", () => {
    const committed = readFileSync(join(contractsDir, "artifacts.ts"), "utf8");
    expect(
      committed === generateArtifacts(contractsDir),
      "contracts/artifacts.ts is stale: run `npm run contracts:build`",
    ).toBe(true);
  });

  it("exposes the public interface other modules code against", () => {
    const names = (abi: readonly { type: string; name?: string }[]) => abi.map((e) => `${e.type}:${e.name ?? ""}`);
    expect(names(depositoryAbi)).toEqual(
      expect.arrayContaining([
        "event:Deposit",
        "event:Withdrawal",
        "function:depositNative",
        "function:depositErc20",
        "function:withdraw",
        "function:owner",
      ]),
    );
    expect(names(receiverAbi)).toEqual(
      expect.arrayContaining([
        "event:Fill",
        "error:NotSolver",
        "error:AlreadyFilled",
        "error:CallFailed",
        "function:fill",
        "function:filled",
        "function:solver",
        "function:executor",
      ]),
    );
    expect(names(testTokenAbi)).toEqual(
      expect.arrayContaining([
        "function:mint",
        "function:setBlocked",
        "error:Blocked",
        "event:Transfer",
        "event:Approval",
      ]),
    );
    expect(names(callTargetAbi)).toEqual(
      expect.arrayContaining(["function:deposit", "function:alwaysReverts", "function:credited"]),
    );
  });
});
