import type { FillOrder, QuotePort } from "../chains/adapter.js";
import { SimulationRevertedError } from "../domain/errors.js";

/**
 * A quote with destination calls runs its fill first: a call that reverts (or a token refusing the recipient)
 * refuses the quote with what the simulation saw. Other reverts (the solver's own setup) are the fill's to judge.
 */
export async function simulateCalls(destination: QuotePort, order: FillOrder): Promise<void> {
  const { blockNumber, refusal } = await destination.simulateFill(order);
  if (!refusal) return;
  const { failure, call } = refusal;
  const causedByRequest =
    failure.details.callIndex !== undefined || failure.failReason === "DESTINATION_TOKEN_TRANSFER_REJECTED";
  if (!causedByRequest) return;
  throw new SimulationRevertedError(String(failure.details.message), {
    errorData: refusal.revertData ?? "0x",
    requestId: order.requestId,
    approxSimulatedBlock: Number(blockNumber),
    failedCallData: { ...call, value: call.value.toString() },
  });
}
