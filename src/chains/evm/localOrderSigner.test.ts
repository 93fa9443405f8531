import { type Hex, recoverMessageAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { computeOrderId } from "../../domain/order.js";
import { testOrder } from "../../../test/support/testOrder.js";
import { localOrderSigner } from "./localOrderSigner.js";

const solver = privateKeyToAccount(generatePrivateKey());
const now = 1_800_000_000_000;

const inTenMinutes = now / 1000 + 600;

describe("localOrderSigner", () => {
  it("signs the id it computes from the order (EIP-191 over the raw 32 bytes), recovering to the solver", async () => {
    const order = testOrder(solver.address.toLowerCase(), inTenMinutes);
    const signature = await localOrderSigner(solver, () => now).signOrder(order);
    expect(await recoverMessageAddress({ message: { raw: computeOrderId(order) }, signature: signature as Hex })).toBe(
      solver.address,
    );
  });

  it("refuses an order naming another solver, or one whose deadline has passed", async () => {
    const signer = localOrderSigner(solver, () => now);
    const stranger = privateKeyToAccount(generatePrivateKey()).address;
    await expect(signer.signOrder(testOrder(stranger, inTenMinutes))).rejects.toMatchObject({
      errorCode: "INVALID_INPUT",
      message: expect.stringContaining(`names solver ${stranger}`),
    });
    await expect(signer.signOrder(testOrder(solver.address, now / 1000))).rejects.toThrow(/deadline .* has passed/);
  });
});
