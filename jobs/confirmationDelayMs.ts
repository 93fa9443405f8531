import type { ChainPort } from "../src/chains/adapter.js";

/** How long a job waits for a deposit's missing confirmations before it looks again: their blocks, at least 200 ms. */
export function confirmationDelayMs(port: ChainPort, missingBlocks: number): number {
  return Math.max(200, missingBlocks * port.chain.blockTimeSeconds * 1000);
}
