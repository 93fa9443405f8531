import { Psbt, Transaction, address } from "bitcoinjs-lib";
import { InvalidInputError, NotFoundError, TransientError } from "../../domain/errors.js";
import { requiredConfirmations } from "../../domain/requiredConfirmations.js";
import type { ChainAdapter, DepositAddressReference, FeeOperation, FillOrder, FillRefusal } from "../adapter.js";
import type { BitcoinChainConfig } from "../chainConfig.js";
import type { DepositAddressOwner } from "../depositAddressOwner.js";
import type { FillLedgerTransaction } from "../fillLedger.js";
import { BITCOIN_NETWORKS, bitcoinFamily } from "./bitcoinFamily.js";
import { buildDepositPsbt } from "./buildDepositPsbt.js";
import { buildRefundPsbt } from "./buildRefundPsbt.js";
import { buildSweepPsbt } from "./buildSweepPsbt.js";
import { DEFAULT_MAX_FEE_RATE_SAT_VB, capFeeRate } from "./capFeeRate.js";
import { depositAddressKeys } from "./depositAddressKeys.js";
import { bumpPayoutFee } from "./bumpPayoutFee.js";
import { cancelPayout } from "./cancelPayout.js";
import { checkBitcoinDeposit } from "./checkBitcoinDeposit.js";
import { createEsploraClient } from "./createEsploraClient.js";
import { walletSigner } from "./walletSigner.js";
import { walletDepositStep } from "../walletDepositStep.js";
import { dustLimit } from "./dustLimit.js";
import { encodeDepositMemo } from "./encodeDepositMemo.js";
import { esploraTxFacts, txAddresses } from "./esploraTxFacts.js";
import { followBitcoinFill } from "./followBitcoinFill.js";
import { signPayout } from "./signPayout.js";
import { spendableBalance } from "./spendableBalance.js";
import { type FactPosition, indexPosition } from "../../domain/factPosition.js";

// Virtual sizes (vB) a fee is estimated for before a transaction exists: one P2WPKH input paying one P2WPKH
// output with a 66-byte memo and change (a deposit, a payout), or sweeping a depository output back (a refund) to
// an output of any standard kind: 199 fits the largest (P2WSH, P2TR; P2PKH and P2SH are 3 and 1 vB over P2WPKH's
// 187), or a refund to a legacy address would pay less than the relay minimum and never be sent.
const VBYTES: Record<FeeOperation, number> = { deposit: 218, fill: 218, refund: 199 };
// The confirmation target (blocks) the quote's fee rate is read for: the deposit should make the next blocks.
const FEE_TARGET_BLOCKS = "2";

/** What `prepareFill` hands `signTransaction` for a payout (a refund's payload is its PSBT's hex). */
type PayoutPayload = { kind: "payout"; recipient: string; amount: string; orderId: string };
/** A refund spending a deposit address's output: signed with that address's key. */
type DepositAddressRefundPayload = { kind: "depositAddressRefund"; psbt: string; derivationIndex: number };

export type BitcoinAdapterOptions = {
  depositoryWif?: string;
  solverWif?: string;
  /** BITCOIN_MAX_FEE_RATE_SAT_VB: the fee-rate cap of a chain whose chains-file entry sets none. */
  maxFeeRateSatVb?: number;
  /**
   * The BIP84 account key of deposit addresses: its extended public key (the gateway: derives addresses) or private
   * key (the worker: also sweeps and refunds them). Without it the chain offers no deposit addresses.
   */
  depositAddressKey?: string;
  /** Which of some addresses are the chain's deposit addresses, with their owners (schema/depositAddresses). */
  depositAddresses?: (addresses: readonly string[]) => Promise<ReadonlyMap<string, DepositAddressOwner>>;
};

const outpoint = (txid: string, vout: number) => `${txid}:${vout}`;
/** The outputs a stored transaction spends. */
const spentBy = (rawTx: string) =>
  Transaction.fromHex(rawTx).ins.map((input) =>
    outpoint(Buffer.from(input.hash).reverse().toString("hex"), input.index),
  );

/**
 * One Bitcoin chain behind the chain-adapter seam, over its Esplora. The origin side of BTC → EVM: the user's PSBT
 * deposit, the balance, deposit facts of a mined transaction, the confirmations rule and the deposit check. Refunds
 * spend the deposit's output with the depository's key (`depositoryWif`); without the key they are refused, for an
 * operator (MANUAL_REFUND_REQUIRED). The destination side of EVM → BTC: the solver pays the recipient from its own
 * wallet (the chain's `solver` address, its key `solverWif`), an OP_RETURN naming the order, signed under the
 * wallet's lock and stored before it is broadcast, re-priced (RBF) when stuck. Without a `solver` address the chain
 * is no destination (`validateQuoteRequest`), and the depository stands as its solver account.
 * Deposit addresses (`depositAddressKey`): the quote's step names an address to pay (no PSBT); a payment to it is the
 * request's deposit; the worker sweeps it to the depository after the fill, or refunds from it.
 */
export function createBitcoinAdapter(chain: BitcoinChainConfig, options: BitcoinAdapterOptions = {}): ChainAdapter {
  const family = bitcoinFamily([chain.network]);
  const network = BITCOIN_NETWORKS[chain.network];
  const esplora = createEsploraClient({ esploraUrl: chain.esploraUrl, chainId: chain.id });
  const facts = esploraTxFacts(chain);
  const depositoryScript = address.toOutputScript(chain.depository, network);
  // Every fee rate the adapter spends at comes from here, capped: Esplora's estimate is a third party's word.
  const maxFeeRate = chain.maxFeeRateSatVb ?? options.maxFeeRateSatVb ?? DEFAULT_MAX_FEE_RATE_SAT_VB;
  const feeRate = async () => capFeeRate((await esplora.feeEstimates())[FEE_TARGET_BLOCKS], maxFeeRate);
  const balanceOf = async (owner: string) => spendableBalance(await esplora.addressStats(owner));
  const signer = options.depositoryWif && walletSigner(options.depositoryWif, network, chain.depository, "depository");
  const solver = chain.solver;
  const solverSigner =
    solver && options.solverWif ? walletSigner(options.solverWif, network, solver, "solver") : undefined;
  const payoutRefusal = (order: FillOrder, message: string, failReason: FillRefusal["failure"]["failReason"]) => ({
    refusal: {
      failure: { failReason, details: { message } },
      call: { from: solver ?? "", to: order.recipient, data: "0x", value: order.amount },
      revertData: undefined,
    },
  });

  /** Signs the payout under the wallet's lock, from confirmed outputs no other stored fill spends. */
  async function signPayoutLocked(ledger: FillLedgerTransaction, payout: PayoutPayload) {
    if (!solver || !solverSigner)
      throw new Error(`chain ${chain.id} has no Bitcoin solver key (BITCOIN_SOLVER_WIF) to sign fills with`);
    const taken = new Set((await ledger.lockSolverWallet(chain.id)).flatMap(spentBy));
    const [utxos, rate] = await Promise.all([esplora.utxos(solver), feeRate()]);
    const spendable = utxos
      .filter((utxo) => utxo.status.confirmed && !taken.has(outpoint(utxo.txid, utxo.vout)))
      .map((utxo) => ({ txid: utxo.txid, vout: utxo.vout, value: BigInt(utxo.value) }));
    try {
      const signed = signPayout({
        network,
        solver,
        signer: solverSigner,
        utxos: spendable,
        recipient: payout.recipient,
        amount: BigInt(payout.amount),
        orderId: payout.orderId,
        feeRate: rate,
      });
      return { nonce: null, rawTx: signed.rawTx, txHash: signed.txHash };
    } catch (error) {
      // The fill job checked the wallet's balance, mempool change included: the change has yet to confirm.
      if (error instanceof InvalidInputError && error.errorCode === "INSUFFICIENT_FUNDS")
        throw new TransientError(
          "SERVICE_UNAVAILABLE",
          `the Bitcoin solver's confirmed outputs do not cover the payout yet: ${error.message}`,
        );
      throw error;
    }
  }
  const depositoryScriptHex = Buffer.from(depositoryScript).toString("hex");
  const depositKeys = options.depositAddressKey
    ? depositAddressKeys(options.depositAddressKey, chain.network)
    : undefined;
  const knownDepositAddresses = async (addresses: readonly string[]) =>
    options.depositAddresses ? options.depositAddresses(addresses) : new Map<string, DepositAddressOwner>();
  /** The key of the deposit address an output pays, when it pays one and the worker holds the private key. */
  const depositAddressSigner = async (output: { scriptpubkey_address?: string }) => {
    const owner = output.scriptpubkey_address && (await knownDepositAddresses([output.scriptpubkey_address]));
    const known = owner && owner.get(output.scriptpubkey_address!);
    return known && depositKeys?.signerAt
      ? { address: output.scriptpubkey_address!, derivationIndex: Number(known.key) }
      : undefined;
  };

  /**
   * A transaction in a block, the deposit addresses among its addresses, and how a fact of it is placed there; 404
   * TRANSACTION_NOT_FOUND while it is unknown or only in the mempool (the spec's answer for an unconfirmed one).
   */
  async function minedTx(txid: string) {
    const tx = await esplora.tx(txid);
    const { status } = tx ?? {};
    if (!tx || !status?.confirmed || status.block_height === undefined || status.block_hash === undefined)
      throw new NotFoundError(
        "TRANSACTION_NOT_FOUND",
        `transaction ${txid} is unknown or not yet in a block on chain ${chain.id}`,
      );
    const located = {
      chainId: chain.id,
      blockNumber: BigInt(status.block_height),
      blockHash: status.block_hash,
      timestamp: BigInt(status.block_time ?? 0),
    };
    return {
      tx,
      known: await knownDepositAddresses(txAddresses(tx)),
      inBlock: <Fact>(fact: Fact) => ({ ...fact, ...located }),
    };
  }

  return {
    ...family,
    chain,
    solverAddress: solver ?? chain.depository,

    // The poller tells a payout from its change by the solver's address: the solver cannot pay itself.
    recipientRefusal: (recipient) =>
      recipient === chain.depository || recipient === solver
        ? { errorCode: "INVALID_RECIPIENT", message: "recipient must not be the depository or the solver's wallet" }
        : undefined,
    estimateFee: async (operation) => BigInt(Math.ceil(VBYTES[operation] * (await feeRate()))),
    // The solver's own balance counts its change waiting in the mempool: it pays once that confirms.
    balanceOf: async (owner) => {
      if (owner !== solver) return balanceOf(owner);
      const { chain_stats: mined, mempool_stats: waiting } = await esplora.addressStats(owner);
      return BigInt(mined.funded_txo_sum - mined.spent_txo_sum + waiting.funded_txo_sum - waiting.spent_txo_sum);
    },
    headHeight: async () => BigInt(await esplora.tipHeight()),
    readDepositAccount: async (user) => ({ balance: await balanceOf(user), allowance: 0n }),
    minimumDeposit: () => dustLimit(depositoryScript),
    minimumPayout: (_currency, recipient) => dustLimit(address.toOutputScript(recipient, network)),
    // The family's key of a deposit address is its derivation index.
    ...(depositKeys
      ? {
          depositAddressFor: async (reference: DepositAddressReference) => {
            const index = await reference.nextIndex();
            return { address: depositKeys.addressAt(index), key: String(index) };
          },
        }
      : {}),
    async depositSteps(input) {
      if (input.depositAddress !== undefined) {
        // No PSBT: any wallet pays the address. The user must still hold the amount (the spec's check).
        const balance = await balanceOf(input.user);
        if (balance < input.amount)
          throw new InvalidInputError(
            "INSUFFICIENT_FUNDS",
            `user ${input.user} holds ${balance} satoshis; the deposit needs ${input.amount}`,
          );
        return [
          {
            id: "deposit",
            action: "Send the deposit to the address",
            description: `Send ${input.amount} satoshis of ${input.currency.symbol} to ${input.depositAddress} on ${chain.displayName ?? chain.name} for the fill on ${input.destinationName}`,
            kind: "transaction",
            requestId: input.requestId,
            depositAddress: input.depositAddress,
            items: [
              {
                status: "incomplete",
                data: { to: input.depositAddress, value: input.amount.toString(), chainId: chain.id },
                check: { endpoint: `/intents/status/v3?requestId=${input.requestId}`, method: "GET" },
              },
            ],
          },
        ];
      }
      const [utxos, rate, balance] = await Promise.all([esplora.utxos(input.user), feeRate(), balanceOf(input.user)]);
      // Only confirmed outputs: the balance the spec counts (funded − spent − mempool spent) holds no mempool change.
      const spendable = utxos
        .filter((utxo) => utxo.status.confirmed)
        .map((utxo) => ({ txid: utxo.txid, vout: utxo.vout, value: BigInt(utxo.value) }));
      if (balance < input.amount)
        throw new InvalidInputError(
          "INSUFFICIENT_FUNDS",
          `user ${input.user} holds ${balance} satoshis; the deposit needs ${input.amount} plus its fee`,
        );
      const { psbt } = buildDepositPsbt({
        network,
        payer: input.user,
        utxos: spendable,
        payee: chain.depository,
        amount: input.amount,
        // The request id, as the deposit step promises; the poller records it and reads map it to the order.
        memo: encodeDepositMemo(input.requestId),
        feeRate: rate,
      });
      return [walletDepositStep(chain, input, { psbt: psbt.toHex() })];
    },
    // A payment runs no code: nothing to simulate beyond what prepareFill checks.
    simulateFill: async () => ({ blockNumber: BigInt(await esplora.tipHeight()), refusal: undefined }),

    async readDepositFacts(txid) {
      const { tx, known, inBlock } = await minedTx(txid);
      return facts.deposits(tx, known).map(inBlock);
    },
    // Read as the poller reads a block's transactions: the solver's payouts and the depository's refunds.
    async readSettlementFacts(txid) {
      const { tx, known, inBlock } = await minedTx(txid);
      return { fills: facts.fills(tx).map(inBlock), withdrawals: facts.withdrawals(tx, known).map(inBlock) };
    },
    // Never fewer than one block: a mempool payment can still be replaced.
    requiredConfirmations: (value) => Math.max(1, requiredConfirmations(chain.confirmations, value)),
    checkDeposit: (deposit, required) => checkBitcoinDeposit(esplora, deposit, required),
    refundSpendsDeposit: true,

    async prepareFill(order) {
      const recipient = family.address.parse(order.recipient);
      if (!recipient)
        return payoutRefusal(
          order,
          `recipient ${order.recipient} is not an address of ${chain.network}`,
          "INVALID_SENDER",
        );
      if (order.calls.length > 0) return payoutRefusal(order, "a Bitcoin payout takes no calls", "EXECUTION_REVERTED");
      const dust = dustLimit(address.toOutputScript(recipient, network));
      if (order.amount < dust)
        return payoutRefusal(
          order,
          `a payout of ${order.amount} satoshis is below the dust limit of ${dust}`,
          "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL",
        );
      const payload: PayoutPayload = {
        kind: "payout",
        recipient,
        amount: order.amount.toString(),
        orderId: order.orderId,
      };
      return { transaction: { chainId: chain.id, payload } };
    },
    async prepareRefund(refund) {
      if (!refund.deposit) return { refusal: "a Bitcoin refund spends its deposit's output, and none was named" };
      const txHash = refund.deposit.txHash;
      const position = indexPosition(refund.deposit.position);
      const output = (await esplora.tx(txHash))?.vout[position];
      // A deposit-address deposit is refunded from the address itself, with its key (it is swept only once filled).
      const fromDepositAddress =
        output && output.scriptpubkey !== depositoryScriptHex && (await depositAddressSigner(output));
      if (!fromDepositAddress && !signer)
        return { refusal: "no depository key is configured (BITCOIN_DEPOSITORY_WIF) to sign the refund" };
      if (!output || (output.scriptpubkey !== depositoryScriptHex && !fromDepositAddress))
        return {
          refusal: `deposit ${txHash}:${position} is not an output of the depository or a deposit address whose key the worker holds on chain ${chain.id}`,
        };
      const spent = await esplora.outspend(txHash, position);
      if (spent.spent) return { refusal: `deposit ${txHash}:${position} is spent already, by ${spent.txid}` };
      const recipient = family.address.parse(refund.recipient);
      if (!recipient) return { refusal: `refund recipient ${refund.recipient} is not an address of ${chain.network}` };
      if (refund.amount < dustLimit(address.toOutputScript(recipient, network)))
        return { refusal: `a refund of ${refund.amount} satoshis is below the dust limit` };
      const psbt = buildRefundPsbt({
        network,
        depository: fromDepositAddress ? fromDepositAddress.address : chain.depository,
        deposit: { txid: txHash, vout: position, value: BigInt(output.value) },
        recipient,
        amount: refund.amount,
        orderId: refund.orderId,
      });
      if (!fromDepositAddress) return { transaction: { chainId: chain.id, payload: psbt.toHex() } };
      const payload: DepositAddressRefundPayload = {
        kind: "depositAddressRefund",
        psbt: psbt.toHex(),
        derivationIndex: fromDepositAddress.derivationIndex,
      };
      return { transaction: { chainId: chain.id, payload } };
    },
    // Bitcoin has no nonce to lock: a refund spends the deposit's output, which cannot be spent twice; a payout
    // takes the solver wallet's lock to pick outputs no other stored fill spends.
    async signTransaction(ledger, transaction) {
      const payload = transaction.payload as string | PayoutPayload | DepositAddressRefundPayload;
      if (transaction.chainId === chain.id && typeof payload === "object" && payload.kind === "payout")
        return signPayoutLocked(ledger, payload);
      const fromAddress = typeof payload === "object" && payload.kind === "depositAddressRefund" ? payload : undefined;
      const key = fromAddress ? depositKeys?.signerAt?.(fromAddress.derivationIndex) : signer;
      if (transaction.chainId !== chain.id || !key)
        throw new Error(`chain ${chain.id} cannot sign a transaction for chain ${transaction.chainId}`);
      const psbt = Psbt.fromHex(fromAddress ? fromAddress.psbt : (payload as string), { network });
      psbt.signAllInputs(key);
      psbt.finalizeAllInputs();
      const tx = psbt.extractTransaction();
      return { nonce: null, rawTx: tx.toHex(), txHash: tx.getId() };
    },
    ...(depositKeys?.signerAt
      ? {
          async signSweep(
            deposit: { txHash: string; position: FactPosition },
            excess?: { recipient: string; keep: bigint },
          ) {
            const vout = indexPosition(deposit.position);
            const output = (await esplora.tx(deposit.txHash))?.vout[vout];
            if (!output) throw new Error(`deposit ${deposit.txHash}:${deposit.position} is unknown to the node`);
            const owner = await depositAddressSigner(output);
            if (!owner) return { skip: "the deposit paid the depository, not a deposit address" };
            const { psbt, amount, fee, returned } = buildSweepPsbt({
              network,
              depositAddress: owner.address,
              depository: chain.depository,
              deposit: { txid: deposit.txHash, vout, value: BigInt(output.value) },
              feeRate: await feeRate(),
              ...(excess ? { excess } : {}),
            });
            psbt.signAllInputs(depositKeys.signerAt!(owner.derivationIndex));
            psbt.finalizeAllInputs();
            const tx = psbt.extractTransaction();
            return { rawTx: tx.toHex(), txHash: tx.getId(), amount, fee, ...(returned ? { returned } : {}) };
          },
        }
      : {}),
    transactionMined: async (txHash) => {
      const status = await esplora.txStatus(txHash);
      return status === undefined ? undefined : status.confirmed;
    },
    async broadcast(signed) {
      try {
        await esplora.broadcast(signed.rawTx);
      } catch (error) {
        // Sent before (a retry after a crash): the node has it already.
        if ((await esplora.txStatus(signed.txHash)) === undefined) throw error;
      }
    },
    followFill: (attempt, { ledger, policy, now }) =>
      followBitcoinFill(attempt, {
        esplora,
        policy,
        now,
        // As deep as the chain's strictest deposit tier: a payout is refunded no sooner than a deposit is trusted.
        cancelConfirmations: Math.max(1, ...chain.confirmations.map((tier) => tier.blocks)),
        bump: async (rawTx, inputValues) =>
          solver && solverSigner
            ? bumpPayoutFee({
                network,
                solver,
                signer: solverSigner,
                rawTx,
                inputValues,
                feeRate: await feeRate(),
                maxFeeRate,
              })
            : undefined,
        storeReplacement: (replaced, next) => ledger.recordReplacement(attempt.requestId, replaced, next),
        cancel: async (rawTx, inputValues) => {
          if (!solver || !solverSigner)
            throw new Error(`chain ${chain.id} has no Bitcoin solver key (BITCOIN_SOLVER_WIF) to cancel a payout with`);
          return cancelPayout({ network, solver, signer: solverSigner, rawTx, inputValues, feeRate: await feeRate() });
        },
        storeCancel: (cancel) => ledger.recordPayoutCancel(attempt.requestId, cancel),
        recordBroadcastFailure: (error) => ledger.recordBroadcastFailure(attempt.requestId, error),
      }),
  };
}
