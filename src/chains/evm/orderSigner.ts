import type { OrderData } from "../../domain/order.js";

/**
 * Signs quotes' orders as the EVM solver (`protocol.v2.orderSignature`: EIP-191 over the raw 32-byte order id, which
 * consumers check against the order's `solver`). It is handed the whole order, never an id: it computes the id
 * itself, so nothing but the hash of an order naming this solver is ever signed. The gateway holds a remote one (the
 * worker signs, the gateway knows only the address); the worker's signer service a local one, with the key.
 */
export interface OrderSigner {
  /** The solver's address, the one signatures recover to. */
  readonly address: string;
  signOrder(order: OrderData): Promise<string>;
}
