/**
 * The destination transaction behind a failed fill: the call the solver sent (or would have sent), and where it
 * reverted on-chain. `txHash`, `blockNumber`, `timestamp` (block time, unix seconds) and `fee` (wei paid) are
 * null when the call was refused in simulation and never sent.
 */
export type FailedTransaction = {
  txHash: string | null;
  blockNumber: bigint | null;
  timestamp: bigint | null;
  fee: bigint | null;
  call: { from: string; to: string; data: string; value: string };
};
