import { describe, expect, it } from "vitest";
import { hypevmKeySchema } from "./hypevmKeys.js";

describe("hypevmKeySchema", () => {
  it("reads both keys under the operators' names, each optional, and refuses a malformed one", () => {
    const key = `0x${"ab".repeat(32)}`;
    expect(hypevmKeySchema.parse({ PERPS_SOLVER_PRIVATE_KEY: key })).toEqual({
      solverPrivateKey: key,
      depositoryPrivateKey: undefined,
    });
    expect(hypevmKeySchema.safeParse({ PERPS_DEPOSITORY_PRIVATE_KEY: "0x1234" }).success).toBe(false);
  });
});
