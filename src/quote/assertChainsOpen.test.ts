import { describe, expect, it } from "vitest";
import { setChainSwitch } from "../../schema/chainSwitches.js";
import { useMigratedDatabase } from "../../test/support/useMigratedDatabase.js";
import { chainConfigSchema } from "../chains/chainConfig.js";
import { createChainAvailability } from "../chains/createChainAvailability.js";
import { assertChainsOpen } from "./assertChainsOpen.js";

const chainOf = (id: number, name: string) =>
  chainConfigSchema.parse({
    id,
    name,
    rpcUrl: "http://127.0.0.1:1",
    blockTimeSeconds: 1,
    depository: "0x00000000000000000000000000000000000000d0",
    receiver: "0x00000000000000000000000000000000000000e0",
  });
const origin = chainOf(31338, "chain-a");
const destination = chainOf(31339, "chain-b");
const usd = (whole: bigint, cents = 0n) => whole * 10n ** 18n + cents * 10n ** 16n;

describe("assertChainsOpen", () => {
  const db = useMigratedDatabase();
  // ttl 0: each call reads the switches as an operator just set them.
  const availability = () => createChainAvailability(db.pool, { ttlMs: 0 });

  it("lets through a quote whose chains have no switch set, at any size", async () => {
    await expect(assertChainsOpen(availability(), [origin, destination], usd(10n ** 9n))).resolves.toBeUndefined();
  });

  it("refuses a disabled chain, whichever side it is, before any value is known, with the operator's reason", async () => {
    await setChainSwitch(db.pool, destination.id, { disabled: true, reason: "RPC incident" });
    const refusal = assertChainsOpen(availability(), [origin, destination]);
    await expect(refusal).rejects.toMatchObject({
      errorCode: "CHAIN_DISABLED",
      message: "chain 31339 (chain-b) is disabled and takes no new requests: RPC incident",
    });
    // The origin alone is open.
    await expect(assertChainsOpen(availability(), [origin])).resolves.toBeUndefined();
    await setChainSwitch(db.pool, destination.id, { disabled: false, reason: null });
  });

  it("holds a partly disabled chain to its USD limit: at the limit passes, a cent above is refused", async () => {
    await setChainSwitch(db.pool, origin.id, { partialDisableLimitUsd: "50.5" });
    await expect(assertChainsOpen(availability(), [origin, destination], usd(50n, 50n))).resolves.toBeUndefined();
    await expect(assertChainsOpen(availability(), [origin, destination], usd(50n, 51n))).rejects.toMatchObject({
      errorCode: "AMOUNT_TOO_HIGH",
      message: "chain 31338 (chain-a) takes quotes up to 50.5 USD for now; this one is 50.51 USD",
    });
    // Without the quote's value (the check before pricing) the limit is not applied yet.
    await expect(assertChainsOpen(availability(), [origin, destination])).resolves.toBeUndefined();
  });
});
