/**
 * The exchange's one-time activation fee, perps USDC base units (8 decimals): 1 USDC, which the sender of a transfer
 * pays on top of it when the destination is an account the exchange has never seen. The devnet exchange charges it
 * the same way (devnet/hypevm/exchangeLedger.ts).
 */
export const ACTIVATION_FEE = 100_000_000n;

/** What the exchange charges the sender of a transfer, perps USDC base units: the activation fee to a new account. */
export function transferFee(destinationIsNew: boolean): bigint {
  return destinationIsNew ? ACTIVATION_FEE : 0n;
}
