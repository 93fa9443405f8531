import type { OrderData } from "../../src/domain/order.js";

/** A quote's order as the gateway makes one, naming `solver`, its output due at `deadline` (unix seconds). */
export function testOrder(solver: string, deadline: number): OrderData {
  return {
    version: "v1",
    solverChainId: "devnet-b",
    solver,
    salt: "42",
    inputs: [],
    output: { chainId: "devnet-b", payments: [], calls: [], deadline, extraData: "0x" },
    fees: [],
  };
}
