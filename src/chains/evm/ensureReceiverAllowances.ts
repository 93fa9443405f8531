import { type Address, type LocalAccount, encodeFunctionData, erc20Abi, maxUint256 } from "viem";
import type { FillLedger } from "../fillLedger.js";
import type { EvmChainClient } from "./evmChainClient.js";
import { broadcastTransaction, prepareSolverTransaction, signSolverTransaction } from "./solverTransaction.js";

/**
 * The Receiver pulls ERC-20 fills from the solver, so the solver approves it once per token before the
 * worker takes fills; every fill can then be simulated before it is signed. Returns the tokens it approved.
 * A standing approval is safe because only the solver can make the Receiver pull, exactly a fill's amount, and the
 * Receiver runs no calldata of a request: destination calls run in its CallExecutor, which nobody approves.
 */
export async function ensureReceiverAllowances(
  ledger: FillLedger,
  evm: EvmChainClient,
  solver: LocalAccount,
): Promise<string[]> {
  const approved: string[] = [];
  const receiver = evm.chain.receiver as Address;
  for (const currency of evm.chain.currencies) {
    const token = currency.address as Address;
    if ((await evm.allowance(solver.address, token, receiver)) >= maxUint256 / 2n) continue;
    // Through the nonce lock, so an approval never takes a nonce a fill is being signed with.
    const prepared = await prepareSolverTransaction(evm, solver, {
      to: token,
      data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [receiver, maxUint256] }),
      value: 0n,
    });
    const signed = await ledger.transaction((tx) => signSolverTransaction(tx, evm, solver, prepared));
    await broadcastTransaction(evm, signed);
    await evm.publicClient.waitForTransactionReceipt({ hash: signed.txHash, pollingInterval: 100 });
    approved.push(currency.symbol);
  }
  return approved;
}
