import { describe, expect, it } from "vitest";
import type { ApiKeyRecord } from "../../schema/apiKeys.js";
import { quoteCallerOf } from "./quoteCallerOf.js";

const key: ApiKeyRecord = {
  id: "key_1",
  name: null,
  integrator: "acme",
  elevated: false,
  managesKeys: false,
  sponsors: true,
  oraclePricingBps: null,
  createdAt: new Date(0),
  revokedAt: null,
};

describe("quoteCallerOf", () => {
  it("carries the key's id, integrator, sponsoring and oracle pricing; nothing without a key", () => {
    expect(quoteCallerOf(undefined)).toEqual({});
    expect(quoteCallerOf(key)).toEqual({ apiKeyId: "key_1", integrator: "acme", sponsors: true });
    expect(quoteCallerOf({ ...key, oraclePricingBps: 0n })).toMatchObject({ oraclePricingBps: 0n });
  });
});
