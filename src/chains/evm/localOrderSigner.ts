import type { LocalAccount } from "viem";
import { InvalidInputError } from "../../domain/errors.js";
import { type OrderData, computeOrderId } from "../../domain/order.js";
import type { OrderSigner } from "./orderSigner.js";

/**
 * The order signer holding the solver's key (the worker's signer service): it signs the id it computes from the
 * order, and refuses an order that names another solver or whose deadline has passed — no quote the gateway makes is
 * either, so such a request comes from something that is not quoting.
 */
export function localOrderSigner(solver: LocalAccount, now: () => number = Date.now): OrderSigner {
  return {
    address: solver.address,
    async signOrder(order: OrderData) {
      if (order.solver.toLowerCase() !== solver.address.toLowerCase())
        throw new InvalidInputError("INVALID_INPUT", `the order names solver ${order.solver}, not ${solver.address}`);
      if (order.output.deadline * 1000 <= now())
        throw new InvalidInputError("INVALID_INPUT", `the order's deadline ${order.output.deadline} has passed`);
      return solver.signMessage({ message: { raw: computeOrderId(order) } });
    },
  };
}
