import { recoverMessageAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { testOrder } from "../../test/support/testOrder.js";
import { computeOrderId } from "../../src/domain/order.js";
import { parseFamilyKeys } from "../../src/config.js";
import { FAMILY_KEY_SCHEMAS } from "./factories.js";
import { roleAdapterKeys } from "./familyAdapters.js";
import { serveDevnetOrderSigner } from "./serveDevnetOrderSigner.js";

describe("serveDevnetOrderSigner", () => {
  it("gives the gateway the solver's address and the signer's URL and token, no key, and signs its orders", async () => {
    const key = generatePrivateKey();
    const solver = privateKeyToAccount(key);
    const served = await serveDevnetOrderSigner(
      parseFamilyKeys({ SOLVER_PRIVATE_KEY: key }, FAMILY_KEY_SCHEMAS).evm,
      pino({ level: "silent" }),
    );
    try {
      expect(served.gatewayKeys).toMatchObject({ solverPrivateKey: undefined, solverAddress: solver.address });
      const gateway = roleAdapterKeys({ ...parseFamilyKeys({}, FAMILY_KEY_SCHEMAS), evm: served.gatewayKeys }, "api");
      const order = testOrder(solver.address, Math.floor(Date.now() / 1000) + 600);
      const signature = await gateway.evm!.orderSigner!.signOrder(order);
      expect(
        await recoverMessageAddress({ message: { raw: computeOrderId(order) }, signature: signature as never }),
      ).toBe(solver.address);
    } finally {
      await served.close();
    }
  });

  it("leaves keys without an EVM solver key as they are", async () => {
    const keys = parseFamilyKeys({}, FAMILY_KEY_SCHEMAS).evm;
    const served = await serveDevnetOrderSigner(keys, pino({ level: "silent" }));
    expect(served.gatewayKeys).toBe(keys);
    await served.close();
  });
});
