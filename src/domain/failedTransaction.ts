/**
 * The destination transaction behind a failed fill: the call the solver sent (or would have sent), and where it
 * reverted on-chain; `txHash` and `blockNumber` are null when the call was refused in simulation.
 */
export type FailedTransaction = {
  txHash: string | null;
  blockNumber: bigint | null;
  call: { from: string; to: string; data: string; value: string };
};
