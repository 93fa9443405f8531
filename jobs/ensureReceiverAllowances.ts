import type pg from "pg";
import type { Logger } from "pino";
import { type Address, type LocalAccount, encodeFunctionData, erc20Abi, maxUint256 } from "viem";
import { withTransaction } from "../schema/withTransaction.js";
import type { ChainConfig } from "../src/chains/chainConfig.js";
import type { EvmChainClient } from "../src/chains/evmChainClient.js";
import { broadcastTransaction, prepareSolverTransaction, signSolverTransaction } from "./solverTransaction.js";

/**
 * The Receiver pulls ERC-20 fills from the solver, so the solver approves it once per token before the
 * worker takes fills; every fill can then be simulated before it is signed.
 */
export async function ensureReceiverAllowances(
  pool: pg.Pool,
  chains: readonly ChainConfig[],
  client: (chainId: number) => EvmChainClient,
  solver: LocalAccount,
  logger: Logger,
): Promise<void> {
  for (const chain of chains) {
    const evm = client(chain.id);
    for (const currency of chain.currencies) {
      const token = currency.address as Address;
      const receiver = chain.receiver as Address;
      if ((await evm.allowance(solver.address, token, receiver)) >= maxUint256 / 2n) continue;
      // Through the nonce lock, so an approval never takes a nonce a fill is being signed with.
      const prepared = await prepareSolverTransaction(evm, solver, {
        to: token,
        data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [receiver, maxUint256] }),
        value: 0n,
      });
      const signed = await withTransaction(pool, (db) => signSolverTransaction(db, evm, solver, prepared));
      await broadcastTransaction(evm, signed);
      await evm.publicClient.waitForTransactionReceipt({ hash: signed.txHash, pollingInterval: 100 });
      logger.info({ chainId: chain.id, token: currency.symbol }, "solver approved the receiver");
    }
  }
}
