import { type Address, type Hex, type LocalAccount, createWalletClient, http, keccak256 } from "viem";
import type { FillLedgerTransaction } from "../fillLedger.js";
import { type EvmChainClient, toViemChain } from "./evmChainClient.js";

export type SolverCall = { to: Address; data: Hex; value: bigint };
export type SignedTransaction = { nonce: number; rawTx: Hex; txHash: Hex };

/** The solver's wallet on a chain: it prepares and signs; nothing is sent through it. */
export function walletFor(chain: EvmChainClient, solver: LocalAccount) {
  return createWalletClient({
    account: solver,
    chain: toViemChain(chain.chain),
    transport: http(chain.chain.rpcUrl, { timeout: chain.chain.rpcTimeoutMs }),
  });
}

export type PreparedSolverTransaction = Awaited<ReturnType<typeof prepareSolverTransaction>>;

/**
 * Simulates a solver transaction and fills in its gas and fees, everything but the nonce. Throws the node's
 * revert when the call would fail. Done before the nonce lock, so the lock is held only to sign.
 */
export async function prepareSolverTransaction(chain: EvmChainClient, solver: LocalAccount, call: SolverCall) {
  return walletFor(chain, solver).prepareTransactionRequest({
    ...call,
    parameters: ["chainId", "fees", "gas", "type"],
  });
}

/**
 * Signs a prepared transaction with the chain's next nonce, from the ledger of the caller's transaction (which holds
 * the nonce lock until it commits, so replicas never share or skip a nonce).
 */
export async function signSolverTransaction(
  ledger: FillLedgerTransaction,
  chain: EvmChainClient,
  solver: LocalAccount,
  prepared: PreparedSolverTransaction,
): Promise<SignedTransaction> {
  const pending = await chain.publicClient.getTransactionCount({ address: solver.address, blockTag: "pending" });
  const nonce = await ledger.lockNextNonce(chain.chain.id, solver.address, pending);
  const rawTx = await walletFor(chain, solver).signTransaction({ ...prepared, nonce });
  await ledger.saveNextNonce(chain.chain.id, solver.address, nonce + 1);
  return { nonce, rawTx, txHash: keccak256(rawTx) };
}

/** Sends a signed transaction; one the node already has (a re-send after a crash) counts as sent. */
export async function broadcastTransaction(
  chain: EvmChainClient,
  signed: { rawTx: string; txHash: string },
): Promise<void> {
  try {
    await chain.publicClient.sendRawTransaction({ serializedTransaction: signed.rawTx as Hex });
  } catch (error) {
    const known = await chain.publicClient.getTransaction({ hash: signed.txHash as Hex }).catch(() => undefined);
    if (!known) throw error;
  }
}
