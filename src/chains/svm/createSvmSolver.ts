import { ACCOUNT_SIZE, getAssociatedTokenAddressSync } from "@solana/spl-token";
import {
  Connection,
  type Keypair,
  PublicKey,
  type TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from "@solana/web3.js";
import bs58 from "bs58";
import type { FillOrder, FillRefusal, MinedReceipt, SolverPort } from "../adapter.js";
import type { SignedBytes } from "../fillLedger.js";
import { followSvmFill } from "./followSvmFill.js";
import { solanaCall } from "./solanaCall.js";
import { SOLANA_RENT_EXEMPT_EMPTY_ACCOUNT } from "./solanaRentExemption.js";
import { solanaDepositInstructions } from "./solanaDepositInstructions.js";
import type { SvmChainConfig } from "./svmChainFamily.js";
import { SOLANA_NATIVE_CURRENCY, svmFamily } from "./svmFamily.js";
import { svmFillFacts } from "./svmFillFacts.js";

/** What `prepareFill` hands `signTransaction`: the fill's instructions, signed with a blockhash fetched then. */
type FillPayload = { instructions: TransactionInstruction[] };

/**
 * The solver's fills to Solana (EVM → SOL/SPL), signed with the solver's keypair: a SOL transfer or an SPL
 * transferChecked (creating the recipient's associated token account, rent paid by the solver, when it is missing)
 * and a Memo naming the request id, built and simulated in `prepareFill`, signed with a fresh blockhash (Solana has
 * no nonce: the ledger stores the signed bytes before they are sent, and one request keeps one stored fill), followed
 * by `followSvmFill` to `finalized` — re-signed with a new blockhash when the old one expires unlanded. `success` comes
 * from the poller, which reads the solver's `finalized` transactions as fill facts (`svmFillFacts`), as Bitcoin's
 * does: no receipt is recorded ahead of it (a provisional fill the poller has not read yet would pass for one a reorg
 * took out). `readReceipt` reads the same facts off one transaction.
 */
export function createSvmSolver(chain: SvmChainConfig & { solver: string }, solverKey?: Keypair): SolverPort {
  const connection = new Connection(chain.rpcUrl, {
    commitment: "confirmed",
    ...(chain.wsUrl ? { wsEndpoint: chain.wsUrl } : {}),
  });
  const solverAddress = chain.solver;
  // The gateway's solver names the route and holds no key: only the worker signs.
  const keyToSign = () => {
    if (!solverKey) throw new Error(`chain ${chain.id}'s solver holds no key here (SOLANA_SOLVER_SECRET_KEY: worker)`);
    return solverKey;
  };
  const call = <T>(what: string, request: () => Promise<T>) => solanaCall(chain.id, what, request);
  const decimalsOf = (currency: string) =>
    currency === SOLANA_NATIVE_CURRENCY
      ? chain.nativeCurrency.decimals
      : chain.currencies.find((listed) => listed.address === currency)?.decimals;

  const refusal = (order: FillOrder, failReason: FillRefusal["failure"]["failReason"], message: string) => ({
    refusal: {
      failure: { failReason, details: { message } },
      call: { from: solverAddress, to: order.recipient, data: "0x", value: order.amount },
      revertData: undefined,
    },
  });

  /** The instructions signed as a v0 transaction paid by the solver, with `blockhash`. */
  const sign = (instructions: TransactionInstruction[], blockhash: string) => {
    const message = new TransactionMessage({
      payerKey: new PublicKey(solverAddress),
      recentBlockhash: blockhash,
      instructions,
    });
    const tx = new VersionedTransaction(message.compileToV0Message());
    tx.sign([keyToSign()]);
    return tx;
  };
  const signed = (tx: VersionedTransaction): SignedBytes => ({
    rawTx: Buffer.from(tx.serialize()).toString("base64"),
    txHash: bs58.encode(tx.signatures[0]!),
  });
  const latestBlockhash = async () =>
    (await call("getLatestBlockhash", () => connection.getLatestBlockhash("confirmed"))).blockhash;
  const deserialize = (rawTx: string) => VersionedTransaction.deserialize(Buffer.from(rawTx, "base64"));

  const send = async (rawTx: string) => {
    await call("sendTransaction", () =>
      connection.sendRawTransaction(Buffer.from(rawTx, "base64"), { skipPreflight: false, maxRetries: 0 }),
    );
  };
  const status = async (signatures: string[]) =>
    (
      await call("getSignatureStatuses", () =>
        connection.getSignatureStatuses(signatures, { searchTransactionHistory: true }),
      )
    ).value;
  const blockhashValid = async (blockhash: string) =>
    (await call("isBlockhashValid", () => connection.isBlockhashValid(blockhash, { commitment: "processed" }))).value;
  /** The same instructions signed again with a fresh blockhash. */
  const resign = async (rawTx: string) => {
    const tx = deserialize(rawTx);
    tx.message.recentBlockhash = await latestBlockhash();
    tx.sign([keyToSign()]);
    return signed(tx);
  };
  const parsed = (signature: string, commitment: "confirmed" | "finalized") =>
    call("getTransaction", () =>
      connection.getParsedTransaction(signature, { commitment, maxSupportedTransactionVersion: 0 }),
    );

  /** The landed transaction as a receipt: its fills read as the poller reads them. */
  const receiptOf = async (signature: string, commitment: "confirmed" | "finalized"): Promise<MinedReceipt | null> => {
    const tx = await parsed(signature, commitment);
    if (!tx?.meta) return null;
    return {
      succeeded: tx.meta.err === null,
      blockNumber: BigInt(tx.slot),
      blockHash: signature,
      timestamp: BigInt(tx.blockTime ?? 0),
      fee: BigInt(tx.meta.fee),
      fills: svmFillFacts(tx, solverAddress).map((fact) => ({
        position: fact.position,
        requestId: fact.requestId,
        currency: fact.currency,
        recipient: fact.recipient,
        amount: fact.amount,
      })),
    };
  };

  return {
    chain,
    solverAddress,

    async prepareFill(order) {
      const recipient = svmFamily.address.parse(order.recipient);
      if (!recipient || recipient === solverAddress || recipient === chain.depository)
        return refusal(order, "INVALID_SENDER", `recipient ${order.recipient} is not a wallet a fill may pay`);
      if (order.calls.length > 0) return refusal(order, "EXECUTION_REVERTED", "a Solana fill takes no calls");
      const decimals = decimalsOf(order.currency);
      if (decimals === undefined)
        return refusal(order, "EXECUTION_REVERTED", `${order.currency} is not a currency of chain ${chain.id}`);
      const native = order.currency === SOLANA_NATIVE_CURRENCY;
      const recipientKey = new PublicKey(recipient);
      if (!native && !PublicKey.isOnCurve(recipientKey.toBytes()))
        return refusal(
          order,
          "INVALID_SENDER",
          `recipient ${recipient} is no wallet (off the ed25519 curve): its token account could never be spent`,
        );
      const watched = native
        ? recipientKey
        : getAssociatedTokenAddressSync(new PublicKey(order.currency), recipientKey, false);
      const account = await call("getAccountInfo", () => connection.getAccountInfo(watched));
      if (native && !account && order.amount < SOLANA_RENT_EXEMPT_EMPTY_ACCOUNT)
        return refusal(
          order,
          "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL",
          `a payment of ${order.amount} lamports cannot open account ${recipient}: it needs ${SOLANA_RENT_EXEMPT_EMPTY_ACCOUNT} to be rent-exempt`,
        );
      // The recipient's token account is missing (closed since the quote, maybe): opening it must not cost the
      // solver more rent than the quote charged.
      if (!native && !account) {
        const rent = BigInt(
          await call("getMinimumBalanceForRentExemption", () =>
            connection.getMinimumBalanceForRentExemption(ACCOUNT_SIZE),
          ),
        );
        const charged = order.quotedRent ?? 0n;
        if (rent > charged)
          return refusal(
            order,
            "NEW_CALLDATA_INCLUDES_HIGHER_RENT_FEE",
            `the recipient's token account ${watched.toBase58()} is missing: opening it costs ${rent} lamports of rent and the quote charged ${charged}`,
          );
      }
      // A fill is a deposit's payment the other way: the solver pays the recipient (opening its token account when
      // missing, the solver paying the rent) with a Memo of the request id.
      const instructions = solanaDepositInstructions({
        user: solverAddress,
        depository: recipient,
        currency: { address: order.currency, decimals },
        amount: order.amount,
        orderId: order.requestId,
        depositoryTokenAccountExists: account !== null,
      });
      // The fill runs against the current state before it is signed: a refusal fails the request unsent.
      const simulated = await call("simulateTransaction", async () =>
        connection.simulateTransaction(sign(instructions, await latestBlockhash()), { sigVerify: false }),
      );
      if (simulated.value.err !== null) {
        const logs = simulated.value.logs ?? [];
        const rent = logs.some((line) => /insufficient (funds|lamports)/i.test(line)) && !native && !account;
        return refusal(
          order,
          rent ? "INSUFFICIENT_FUNDS_FOR_RENT" : "TRANSACTION_REVERTED",
          `the fill would fail on Solana: ${JSON.stringify(simulated.value.err)} ${logs.slice(-3).join(" | ")}`,
        );
      }
      const payload: FillPayload = { instructions };
      return { transaction: { chainId: chain.id, payload } };
    },

    // No nonce: each signature is of its own blockhash; the request's stored fill is the one ever sent.
    async signTransaction(_ledger, transaction) {
      if (transaction.chainId !== chain.id)
        throw new Error(`chain ${chain.id} cannot sign a transaction for chain ${transaction.chainId}`);
      const { instructions } = transaction.payload as FillPayload;
      return { nonce: null, ...signed(sign(instructions, await latestBlockhash())) };
    },

    async broadcast(bytes) {
      try {
        await send(bytes.rawTx);
      } catch (error) {
        // Sent before (a retry after a crash): the chain has it already.
        const [known] = await status([bytes.txHash]);
        if (!known) throw error;
      }
    },

    readReceipt: (txHash) => receiptOf(txHash, "confirmed"),

    // The blockhash is asked before the status: one that landed just before expiring is seen, and is not re-signed.
    async resignExpired(sent) {
      if (await blockhashValid(deserialize(sent.rawTx).message.recentBlockhash)) return undefined;
      const [landed] = await status([sent.txHash]);
      return landed ? undefined : resign(sent.rawTx);
    },

    async transactionMined(txHash) {
      const [landed] = await status([txHash]);
      return landed ? landed.confirmationStatus === "finalized" && landed.err === null : undefined;
    },

    followFill: (attempt, { ledger, policy }) =>
      followSvmFill(attempt, {
        policy,
        blockhashOf: (rawTx) => deserialize(rawTx).message.recentBlockhash,
        blockhashValid,
        statuses: status,
        landed: async (signature) => {
          const tx = await parsed(signature, "confirmed");
          return {
            slot: BigInt(tx?.slot ?? 0),
            timestamp: BigInt(tx?.blockTime ?? 0),
            fee: BigInt(tx?.meta?.fee ?? 0),
          };
        },
        send,
        resign,
        storeReplacement: (replaced, next) => ledger.recordReplacement(attempt.requestId, replaced, next),
        recordBroadcastFailure: (error) => ledger.recordBroadcastFailure(attempt.requestId, error),
      }),
  };
}
