import { ACCOUNT_SIZE, getAssociatedTokenAddressSync } from "@solana/spl-token";
import { Connection, PublicKey, TransactionMessage } from "@solana/web3.js";
import { InvalidInputError, NotFoundError } from "../../domain/errors.js";
import { requiredConfirmations } from "../../domain/requiredConfirmations.js";
import type { DepositPort, FeeOperation, QuotePort } from "../adapter.js";
import { walletDepositStep } from "../walletDepositStep.js";
import { checkSolanaTransactionSize } from "./checkSolanaTransactionSize.js";
import { checkSvmDeposit } from "./checkSvmDeposit.js";
import { SOLANA_RENT_EXEMPT_EMPTY_ACCOUNT } from "./solanaRentExemption.js";
import { solanaCall } from "./solanaCall.js";
import { solanaDepositInstructions } from "./solanaDepositInstructions.js";
import type { SvmChainConfig } from "./svmChainFamily.js";
import { svmDepositFacts } from "./svmDepositFacts.js";
import { svmDepositTargets } from "./svmDepositTargets.js";
import { svmFillFacts } from "./svmFillFacts.js";
import { svmWithdrawalFacts } from "./svmWithdrawalFacts.js";
import { SOLANA_NATIVE_CURRENCY, svmFamily } from "./svmFamily.js";

/** Solana's base fee, lamports per signature; the service adds no priority fee. */
const LAMPORTS_PER_SIGNATURE = 5_000n;
/** Signatures each operation's transaction carries: the payer's alone. */
const SIGNATURES: Record<FeeOperation, bigint> = { deposit: 1n, fill: 1n, refund: 1n };
// Any 32 bytes stand in for the blockhash the wallet fetches itself: the size does not depend on them.
const SIZE_PROBE_BLOCKHASH = SOLANA_NATIVE_CURRENCY;
/** A token account's data: the u64 amount is at byte 64. */
const TOKEN_AMOUNT_OFFSET = 64;
/**
 * Slots a deposit's reader waits for a transaction the chain has `processed` to be `confirmed` (a cluster confirms in
 * a slot or two): the official client posts the signature to POST /transactions/index as soon as the RPC took it.
 */
export const SVM_CONFIRMATION_WAIT_SLOTS = 25;

/**
 * One Solana chain behind the chain-adapter seam, over its JSON-RPC: the origin side of SOL/SPL → EVM. The quote's
 * deposit step is a list of instructions the wallet compiles into a v0 transaction (a transfer to the depository and
 * a Memo naming the order), sized before it is offered; a deposit's facts, and the solver's fills and the
 * depository's refunds (the manual index), are read from its landed transaction; the deposit check waits for
 * `finalized`. Fills (createSvmSolver) and refunds (createSvmRefunder) are roles of their own,
 * which sign.
 */
export function createSvmAdapter(chain: SvmChainConfig): QuotePort & DepositPort {
  const connection = new Connection(chain.rpcUrl, {
    commitment: "confirmed",
    ...(chain.wsUrl ? { wsEndpoint: chain.wsUrl } : {}),
  });
  const targets = svmDepositTargets(chain);
  const call = <T>(what: string, request: () => Promise<T>) => solanaCall(chain.id, what, request);
  const decimalsOf = (currency: string) =>
    currency === SOLANA_NATIVE_CURRENCY
      ? chain.nativeCurrency.decimals
      : chain.currencies.find((listed) => listed.address === currency)?.decimals;
  const tokenAccountOf = (owner: string, mint: string) =>
    getAssociatedTokenAddressSync(new PublicKey(mint), new PublicKey(owner), true);
  const lamportsOf = (owner: string) => call("getBalance", () => connection.getBalance(new PublicKey(owner)));
  /** What an owner's associated token account of `mint` holds, 0 when it has none. */
  const tokensOf = async (owner: string, mint: string) => {
    const account = await call("getAccountInfo", () => connection.getAccountInfo(tokenAccountOf(owner, mint)));
    return account ? Buffer.from(account.data).readBigUInt64LE(TOKEN_AMOUNT_OFFSET) : 0n;
  };
  const balanceOf = async (owner: string, currency: string) =>
    currency === SOLANA_NATIVE_CURRENCY ? BigInt(await lamportsOf(owner)) : tokensOf(owner, currency);
  const fee = (operation: FeeOperation) => LAMPORTS_PER_SIGNATURE * SIGNATURES[operation];
  /** The rent-exempt minimum of a token account, what opening one costs whoever pays it. */
  const tokenAccountRent = async () =>
    BigInt(
      await call("getMinimumBalanceForRentExemption", () => connection.getMinimumBalanceForRentExemption(ACCOUNT_SIZE)),
    );

  const slotMs = chain.blockTimeSeconds * 1000;
  /**
   * The transaction at `confirmed` (what getTransaction serves at the least), waiting up to
   * SVM_CONFIRMATION_WAIT_SLOTS for one the chain has only `processed`; null for one it does not have.
   */
  const confirmedTransaction = async (signature: string) => {
    const deadline = Date.now() + SVM_CONFIRMATION_WAIT_SLOTS * slotMs;
    for (;;) {
      const tx = await call("getTransaction", () =>
        connection.getParsedTransaction(signature, { commitment: "confirmed", maxSupportedTransactionVersion: 0 }),
      );
      if (tx) return tx;
      const {
        value: [landed],
      } = await call("getSignatureStatuses", () => connection.getSignatureStatuses([signature]));
      if (!landed || Date.now() >= deadline) return null;
      await new Promise((resolve) => setTimeout(resolve, slotMs));
    }
  };

  /** A transaction landed `confirmed`; 404 TRANSACTION_NOT_FOUND while it is unknown or not confirmed in the wait. */
  const landed = async (signature: string) => {
    const tx = await confirmedTransaction(signature);
    if (!tx)
      throw new NotFoundError(
        "TRANSACTION_NOT_FOUND",
        `transaction ${signature} is unknown or not yet confirmed on chain ${chain.id}`,
      );
    return tx;
  };
  const onChain = <Fact>(fact: Fact) => ({ ...fact, chainId: chain.id });
  const readDepositFacts = async (signature: string) => svmDepositFacts(await landed(signature), targets).map(onChain);

  /**
   * The solver's fills and the depository's refunds of a transaction, read as the poller reads them (the same
   * readers). A fill counts once `finalized`, as the poller lists the solver's signatures: 404 before.
   */
  const readSettlementFacts = async (signature: string) => {
    const tx = await landed(signature);
    const fills = chain.solver ? svmFillFacts(tx, chain.solver).map(onChain) : [];
    if (fills.length > 0) {
      const { value } = await call("getSignatureStatuses", () =>
        connection.getSignatureStatuses([signature], { searchTransactionHistory: true }),
      );
      if (value[0]?.confirmationStatus !== "finalized")
        throw new NotFoundError(
          "TRANSACTION_NOT_FOUND",
          `fill ${signature} is not finalized yet on chain ${chain.id}: index it again once it is`,
        );
    }
    return { fills, withdrawals: svmWithdrawalFacts(tx, chain.depository).map(onChain) };
  };

  return {
    ...svmFamily,
    chain,
    solverAddress: chain.solver ?? chain.depository,

    recipientRefusal: (recipient, currency) => {
      if (recipient === chain.depository || recipient === chain.solver)
        return {
          errorCode: "INVALID_RECIPIENT",
          message: "recipient must not be the depository or the solver's wallet",
        };
      if (chain.currencies.some((currency) => currency.address === recipient))
        return { errorCode: "INVALID_RECIPIENT", message: `recipient ${recipient} is a token mint, not a wallet` };
      // An SPL fill pays the recipient's associated token account: an address off the curve (a token account, a
      // program's) has no key to spend it.
      if (
        currency !== undefined &&
        currency !== SOLANA_NATIVE_CURRENCY &&
        !PublicKey.isOnCurve(new PublicKey(recipient))
      )
        return {
          errorCode: "INVALID_RECIPIENT",
          message: `recipient ${recipient} is not a wallet (off the ed25519 curve: a token account or a program's address); SPL tokens are paid to a wallet's own token account`,
        };
      return undefined;
    },
    estimateFee: async (operation) => fee(operation),
    balanceOf,
    headHeight: async () => BigInt(await call("getSlot", () => connection.getSlot("confirmed"))),
    readDepositAccount: async (user, currency) => ({ balance: await balanceOf(user, currency), allowance: 0n }),
    // The depository and its token accounts exist (rent-exempt): any positive transfer lands.
    minimumDeposit: () => 1n,
    // A SOL payment may open the recipient's account, which then must be rent-exempt; a token account exists or is
    // opened by the solver.
    minimumPayout: (currency) => (currency === SOLANA_NATIVE_CURRENCY ? SOLANA_RENT_EXEMPT_EMPTY_ACCOUNT : 1n),
    // An SPL payout to a wallet without its associated token account opens it, the solver paying the rent (a SOL
    // payout opening an account is itself the rent: minimumPayout).
    async payoutRent(currency, recipient) {
      if (currency === SOLANA_NATIVE_CURRENCY) return 0n;
      const account = await call("getAccountInfo", () =>
        connection.getAccountInfo(tokenAccountOf(recipient, currency)),
      );
      return account ? 0n : tokenAccountRent();
    },
    async depositSteps(input) {
      const currency = input.currency.address;
      const decimals = decimalsOf(currency);
      if (decimals === undefined)
        throw new InvalidInputError("UNSUPPORTED_CURRENCY", `${currency} is not a currency of chain ${chain.id}`);
      const native = currency === SOLANA_NATIVE_CURRENCY;
      const depositoryTokenAccountExists =
        native ||
        (await call("getAccountInfo", () => connection.getAccountInfo(tokenAccountOf(chain.depository, currency)))) !==
          null;
      const instructions = solanaDepositInstructions({
        user: input.user,
        depository: chain.depository,
        currency: { address: currency, decimals },
        amount: input.amount,
        orderId: input.orderId,
        depositoryTokenAccountExists,
        ...(input.feePayer === undefined ? {} : { payer: input.feePayer }),
      });
      // `depositFeePayer`: another wallet signs as the fee payer (and pays any rent); the user still signs the transfer.
      const payer = input.feePayer ?? input.user;
      const message = new TransactionMessage({
        payerKey: new PublicKey(payer),
        recentBlockhash: SIZE_PROBE_BLOCKHASH,
        instructions,
      }).compileToV0Message();
      // Counted, not serialised (web3.js throws past the limit): past Solana's packet size no wallet could send it.
      checkSolanaTransactionSize(message);
      // The fee (each signature's) and the rent of the depository's token account when the deposit creates it, of
      // the fee payer; the SOL transferred, of the user (one wallet when the user pays its own fee).
      const rent = depositoryTokenAccountExists ? 0n : await tokenAccountRent();
      const fees = LAMPORTS_PER_SIGNATURE * BigInt(message.header.numRequiredSignatures) + rent;
      const [userLamports, payerLamports, tokens] = await Promise.all([
        lamportsOf(input.user).then(BigInt),
        payer === input.user ? Promise.resolve(0n) : lamportsOf(payer).then(BigInt),
        native ? Promise.resolve(0n) : tokensOf(input.user, currency),
      ]);
      const transferred = native ? input.amount : 0n;
      if (payer === input.user && userLamports < fees + transferred)
        throw new InvalidInputError(
          "INSUFFICIENT_FUNDS",
          `user ${input.user} holds ${userLamports} lamports; the deposit needs ${fees + transferred} with its fee`,
        );
      if (payer !== input.user && payerLamports < fees)
        throw new InvalidInputError(
          "INSUFFICIENT_FUNDS",
          `depositFeePayer ${payer} holds ${payerLamports} lamports; the deposit's fee${rent > 0n ? " and rent" : ""} take ${fees}`,
        );
      if (payer !== input.user && userLamports < transferred)
        throw new InvalidInputError(
          "INSUFFICIENT_FUNDS",
          `user ${input.user} holds ${userLamports} lamports; the deposit needs ${transferred}`,
        );
      if (!native && tokens < input.amount)
        throw new InvalidInputError(
          "INSUFFICIENT_FUNDS",
          `user ${input.user} holds ${tokens} of ${input.currency.symbol}; the deposit needs ${input.amount}`,
        );
      // The official SVM adapter compiles these into a v0 transaction with its payer (the user, or the wallet given as
      // depositFeePayer) paying the fee.
      return [
        walletDepositStep(chain, input, {
          instructions: instructions.map((instruction) => ({
            keys: instruction.keys.map((key) => ({
              pubkey: key.pubkey.toBase58(),
              isSigner: key.isSigner,
              isWritable: key.isWritable,
            })),
            programId: instruction.programId.toBase58(),
            data: Buffer.from(instruction.data).toString("hex"),
          })),
          addressLookupTableAddresses: [],
        }),
      ];
    },
    // A payment runs no code of the request's (no calls): the solver's prepareFill simulates the fill itself.
    simulateFill: async () => ({
      blockNumber: BigInt(await call("getSlot", () => connection.getSlot("confirmed"))),
      refusal: undefined,
    }),

    readDepositFacts,
    readSettlementFacts,
    requiredConfirmations: (value) => requiredConfirmations(chain.confirmations, value),
    checkDeposit: (deposit, required) =>
      checkSvmDeposit(connection, chain.id, deposit, required, async (slot) => {
        const moved = (await readDepositFacts(deposit.txHash)).find((fact) => fact.position === deposit.position);
        return moved && moved.blockNumber === BigInt(slot)
          ? {
              position: moved.position,
              blockNumber: moved.blockNumber,
              blockHash: moved.blockHash,
              timestamp: moved.timestamp,
            }
          : undefined;
      }),
  };
}
