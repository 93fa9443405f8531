import { createHash, timingSafeEqual } from "node:crypto";
import { Hono } from "hono";
import { z } from "zod";
import { isCrossfillError } from "../../domain/errors.js";
import type { OrderData } from "../../domain/order.js";
import type { OrderSigner } from "./orderSigner.js";

const hex = z.string().regex(/^0x([0-9a-fA-F]{2})*$/, "hex bytes") as z.ZodType<`0x${string}`>;
const uint = z.string().regex(/^\d{1,78}$/, "a decimal integer");
const deadline = z.number().int().nonnegative();

/** `protocol.v2.orderData` as the gateway sends it: every field, nothing else. */
const orderSchema: z.ZodType<OrderData> = z
  .object({
    version: z.string(),
    solverChainId: z.string(),
    solver: z.string(),
    salt: uint,
    inputs: z.array(
      z
        .object({
          payment: z.object({ chainId: z.string(), currency: z.string(), amount: uint, weight: uint }).strict(),
          refunds: z.array(
            z
              .object({
                chainId: z.string(),
                recipient: z.string(),
                currency: z.string(),
                minimumAmount: uint,
                deadline,
                extraData: hex,
              })
              .strict(),
          ),
        })
        .strict(),
    ),
    output: z
      .object({
        chainId: z.string(),
        payments: z.array(
          z.object({ recipient: z.string(), currency: z.string(), minimumAmount: uint, expectedAmount: uint }).strict(),
        ),
        calls: z.array(hex),
        deadline,
        extraData: hex,
      })
      .strict(),
    fees: z.array(
      z
        .object({
          recipientChainId: z.string(),
          recipient: z.string(),
          currencyChainId: z.string(),
          currency: z.string(),
          amount: uint,
        })
        .strict(),
    ),
  })
  .strict();

const bodySchema = z.object({ order: orderSchema }).strict();

const digest = (value: string) => createHash("sha256").update(value).digest();

/**
 * The worker's order signer service, for the gateway (`POST /order-signatures {order}` → `{signature}`): only a
 * caller with the shared token (`Authorization: Bearer <ORDER_SIGNER_TOKEN>`, compared in constant time), only a
 * whole order (the signer computes its id), and only one the signer accepts (naming its solver, not expired). There
 * is no way to have a bare 32-byte value signed.
 */
export function orderSignerRoutes(signer: OrderSigner, token: string): Hono {
  const expected = digest(`Bearer ${token}`);
  const app = new Hono();
  app.post("/order-signatures", async (c) => {
    if (!timingSafeEqual(digest(c.req.header("authorization") ?? ""), expected))
      return c.json({ message: "the order signer's token is required", errorCode: "UNAUTHORIZED" }, 401);
    const body = bodySchema.safeParse(await c.req.json().catch(() => undefined));
    if (!body.success)
      return c.json(
        {
          message: `expected {order: <protocol.v2.orderData>}: ${body.error.issues[0]?.message}`,
          errorCode: "INVALID_INPUT",
        },
        400,
      );
    try {
      return c.json({ signature: await signer.signOrder(body.data.order) });
    } catch (error) {
      if (isCrossfillError(error) && error.status === 400)
        return c.json({ message: error.message, errorCode: error.errorCode }, 400);
      throw error;
    }
  });
  app.notFound((c) => c.json({ message: "only POST /order-signatures here", errorCode: "NOT_FOUND" }, 404));
  return app;
}
