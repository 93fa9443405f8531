import type { PrivateKeyAccount } from "viem";
import { InvalidInputError, NotFoundError, UpstreamFailureError } from "../../domain/errors.js";
import { requiredConfirmations } from "../../domain/requiredConfirmations.js";
import type { FailReason } from "../../domain/failReasons.js";
import type {
  DepositPort,
  FillOrder,
  FillRefusal,
  PreparedTransaction,
  QuotePort,
  QuoteStep,
  RefundPort,
  SignedTransaction,
  SolverPort,
} from "../adapter.js";
import { parseExchangeAmount } from "./exchangeAmount.js";
import { createExchangeApi, LEDGER_PAGE } from "./exchangeApi.js";
import { exchangeTransferId, parseExchangeTransferId } from "./exchangeTransferId.js";
import type { HypevmChainConfig } from "./hypevmChainFamily.js";
import { hypevmFamily, PERPS_USDC_CURRENCY, parseCurrencyId, subExchangeOf } from "./hypevmFamily.js";
import { type ExchangeLedgerFactsOptions, exchangeLedgerFacts } from "./exchangeLedgerFacts.js";
import { type SendAssetAction, sendAssetTo } from "./sendAssetTo.js";
import { SEND_ASSET_TYPES } from "./sendAssetTypes.js";
import { signExchangeAction } from "./signExchangeAction.js";
import { transferFee } from "./transferFee.js";
import { withdrawalSteps } from "./withdrawalSteps.js";

/** The chain the service's own transfers name in `signatureChainId` (any works: Arbitrum's, as the SDKs default). */
const SIGNATURE_CHAIN_ID = 42161;
/** How many accounts known to exist an adapter remembers (then it forgets them all and asks again). */
const KNOWN_ACCOUNTS_HELD = 100_000;
/** How far before its nonce a transfer is looked for in its signer's ledger (clocks differ a little). */
const LOOKBACK_MS = 60_000;

/** What `prepareFill`/`prepareRefund` hand `signTransaction`: who signs which `sendAsset`, before its nonce. */
type TransferPayload = { signer: "solver" | "depository"; action: Omit<SendAssetAction, "nonce"> };

export type HypevmAdapterDeps = {
  /** The solver's and depository's exchange keys (the worker's); the gateway holds neither. */
  solver?: PrivateKeyAccount;
  depository?: PrivateKeyAccount;
  /** The nonce mapping, stored fills and stored refunds a transfer is read against (`exchangeLedgerFacts`). */
  orderOf: ExchangeLedgerFactsOptions["orderOf"];
  fillOf?: ExchangeLedgerFactsOptions["fillOf"];
  refundOf?: ExchangeLedgerFactsOptions["refundOf"];
  /** Milliseconds; the withdrawal steps' nonce. */
  now?: () => number;
};

/**
 * The perps exchange (chain 1337) behind the chain-adapter seam, over its HTTP API. As a destination the solver pays
 * a deposit to the exchange with a signed `sendAsset` from its account (no fee, final once the exchange takes it); as
 * an origin a withdrawal is the user's `sendAsset` to the depository under a nonce the user mapped to the order
 * (`/authorize`), read from the depository's ledger; refunds are the depository's `sendAsset` back. Nonces are
 * milliseconds, unique per signer through the fill ledger's nonce lock; a transfer is found again by (signer, nonce).
 */
export function createHypevmAdapter(
  chain: HypevmChainConfig,
  deps: HypevmAdapterDeps,
): QuotePort & DepositPort & SolverPort & RefundPort {
  const api = createExchangeApi({ chainId: chain.id, exchangeUrl: chain.exchangeUrl });
  const knownAccounts = new Set<string>();
  const now = deps.now ?? Date.now;
  const solverAddress = chain.solver ?? chain.depository;
  const key = (signer: TransferPayload["signer"]) => {
    const account = deps[signer];
    if (!account) throw new Error(`no ${signer} key for chain ${chain.id}'s exchange account (PERPS_*_PRIVATE_KEY)`);
    return account;
  };

  const clearinghouse = (user: string) =>
    api.info<{ withdrawable: string; time: number }>({ type: "clearinghouseState", user });
  const decimalsOf = (currency: string) =>
    currency === PERPS_USDC_CURRENCY
      ? 8
      : chain.currencies.find((listed) => parseCurrencyId(listed.address) === currency)?.decimals;
  /** What an account holds of a currency: perps USDC's `withdrawable`, a spot token's total; none on other dexes. */
  const balanceOf = async (owner: string, currency: string): Promise<bigint> => {
    const id = parseCurrencyId(currency);
    if (id === PERPS_USDC_CURRENCY) return parseExchangeAmount((await clearinghouse(owner)).withdrawable, 8) ?? 0n;
    if (id === undefined || subExchangeOf(id) !== "") return 0n;
    const [tokens, state] = await Promise.all([
      api.spotTokens(),
      api.info<{ balances: { coin: string; total: string }[] }>({ type: "spotClearinghouseState", user: owner }),
    ]);
    const token = tokens.find((t) => t.tokenId.toLowerCase() === id);
    const held = token && state.balances.find((balance) => balance.coin === token.name);
    return (held && parseExchangeAmount(held.total, token.weiDecimals)) ?? 0n;
  };
  /** The exchange's clock in seconds: its "block". */
  const head = async () => BigInt(Math.floor((await clearinghouse(chain.depository)).time / 1000));

  /** The `sendAsset` paying `amount` of `currency` to `recipient`, before its nonce; undefined for an unlisted currency. */
  const transfer = (recipient: string, currency: string, amount: bigint) => {
    const action = sendAssetTo({
      recipient,
      currency,
      amount,
      currencies: chain.currencies,
      network: chain.network,
      nonce: 0,
      signatureChainId: SIGNATURE_CHAIN_ID,
    });
    if (!action) return undefined;
    const { nonce: _, ...unsigned } = action;
    return unsigned;
  };

  /**
   * The activation fee a transfer to `recipient` costs its sender now, perps USDC: nothing to a known account. An
   * account never stops existing, so one seen is not asked again (every quote to the exchange asks otherwise, and
   * `/info` is rate limited).
   */
  const activationFee = async (_currency: string, recipient: string) => {
    const account = recipient.toLowerCase();
    if (knownAccounts.has(account)) return 0n;
    const exists = await api.accountExists(recipient);
    if (exists) {
      if (knownAccounts.size >= KNOWN_ACCOUNTS_HELD) knownAccounts.clear();
      knownAccounts.add(account);
    }
    return transferFee(!exists);
  };

  const spotUsdc = chain.currencies.find(
    (listed) => listed.symbol === "USDC" && parseCurrencyId(listed.address) !== PERPS_USDC_CURRENCY,
  );
  /** The USDC of the side a transfer is sent from, which pays its activation fee: perps USDC or spot USDC. */
  const usdcOf = (sourceDex: string) =>
    sourceDex === "" ? PERPS_USDC_CURRENCY : spotUsdc && parseCurrencyId(spotUsdc.address);

  /**
   * Why `sender` cannot pay `amount` of `currency` to `recipient` with this transfer now, or undefined when it can: the
   * activation fee a new recipient costs must have been charged (`charged`, perps USDC), and the sender must hold the
   * amount and that fee in the USDC of the side it leaves from (the same balance when the currency is that USDC).
   */
  const shortfall = async (
    transfer: { sender: string; action: Omit<SendAssetAction, "nonce">; recipient: string; charged?: bigint },
    currency: string,
    amount: bigint,
    symbol: string,
  ): Promise<{ reason: FailReason; message: string } | undefined> => {
    const { sender, action, recipient } = transfer;
    const feeCurrency = usdcOf(action.sourceDex);
    const [balance, fee] = await Promise.all([balanceOf(sender, currency), activationFee(currency, recipient)]);
    if (fee > (transfer.charged ?? 0n))
      return {
        reason: "NEW_CALLDATA_INCLUDES_HIGHER_RENT_FEE",
        message: `${recipient} is new to the exchange: its activation fee ${fee} was not charged (${transfer.charged ?? 0n})`,
      };
    const short = (message: string) => ({ reason: "SOLVER_BALANCE_TOO_LOW" as const, message });
    if (balance < amount) return short(`${sender} holds ${balance} of ${symbol}; the transfer needs ${amount}`);
    if (fee === 0n) return undefined;
    const usdc =
      feeCurrency === parseCurrencyId(currency)
        ? balance - amount
        : feeCurrency === undefined
          ? 0n
          : await balanceOf(sender, feeCurrency);
    if (usdc < fee)
      return short(
        `${sender} holds ${usdc} of the USDC that pays the activation fee ${fee} of the new account ${recipient}`,
      );
    return undefined;
  };

  /** The ledger entry of a signer's transfer with this nonce, looked for from a little before it. */
  const findTransfer = async (signer: string, nonce: number) => {
    let from = nonce - LOOKBACK_MS;
    for (;;) {
      const updates = await api.ledgerUpdates(signer, from);
      const found = updates.find(
        (u) => u.delta.nonce === nonce && String(u.delta.user).toLowerCase() === signer.toLowerCase(),
      );
      if (found || updates.length < LEDGER_PAGE) return found;
      from = updates.at(-1)!.time;
    }
  };

  const factsOf = exchangeLedgerFacts({
    depository: chain.depository,
    ...(chain.solver ? { solver: chain.solver } : {}),
    orderOf: deps.orderOf,
    ...(deps.fillOf ? { fillOf: deps.fillOf } : {}),
    ...(deps.refundOf ? { refundOf: deps.refundOf } : {}),
  });
  /**
   * A transfer's facts as the poller reads them, from the ledger of the account that shows it: the solver's for its
   * own transfers (fills), the depository's for the rest (deposits to it, its refunds). 404 for a transfer the
   * exchange does not know.
   */
  const readLedgerFacts = async (txHash: string) => {
    const tx = await api.txDetails(txHash);
    if (!tx)
      throw new NotFoundError("TRANSACTION_NOT_FOUND", `transfer ${txHash} is unknown to chain ${chain.id}'s exchange`);
    const account = tx.user.toLowerCase() === chain.solver?.toLowerCase() ? chain.solver : chain.depository;
    const [updates, tokens] = await Promise.all([api.ledgerUpdates(account, tx.time), api.spotTokens()]);
    const update = updates.find((u) => u.hash.toLowerCase() === txHash.toLowerCase());
    const facts = await factsOf(update ? [update] : [], tokens);
    const onChain = <Fact>(fact: Fact) => ({ ...fact, chainId: chain.id });
    return {
      deposits: facts.deposits.map(onChain),
      fills: facts.fills.map(onChain),
      withdrawals: facts.withdrawals.map(onChain),
    };
  };

  /** Sends a signed transfer; one the exchange took already (its nonce spent) counts as sent. */
  const send = async (signed: { rawTx: string }): Promise<{ refused?: string }> => {
    const answer = await api.exchange(JSON.parse(signed.rawTx));
    if (answer.status === "ok" || /duplicate nonce/i.test(answer.response)) return {};
    return { refused: answer.response };
  };

  const fillRefusal = (
    order: FillOrder,
    message: string,
    failReason: FailReason = "SOLVER_BALANCE_TOO_LOW",
  ): { refusal: FillRefusal } => ({
    refusal: {
      failure: { failReason, details: { message } },
      call: { from: solverAddress, to: order.recipient, data: "0x", value: order.amount },
      revertData: undefined,
    },
  });

  /** The solver's signed-to-be `sendAsset` paying a fill, or why it cannot pay it now (shortfall). */
  const prepareFill = async (
    order: FillOrder,
  ): Promise<{ transaction: PreparedTransaction } | { refusal: FillRefusal }> => {
    const action = transfer(order.recipient, order.currency, order.amount);
    if (!action) return fillRefusal(order, `${order.currency} is not a currency chain ${chain.id} pays`);
    const short = await shortfall(
      { sender: solverAddress, action, recipient: order.recipient, charged: order.quotedRent },
      order.currency,
      order.amount,
      order.currencySymbol,
    );
    if (short) return fillRefusal(order, short.message, short.reason);
    return { transaction: { chainId: chain.id, payload: { signer: "solver", action } satisfies TransferPayload } };
  };

  return {
    ...hypevmFamily,
    chain,
    solverAddress,

    recipientRefusal: (recipient) => {
      const key = recipient.toLowerCase();
      if (key === chain.depository.toLowerCase() || key === chain.solver?.toLowerCase())
        return {
          errorCode: "INVALID_RECIPIENT",
          message: "recipient must not be the depository or the solver's account",
        };
      if (parseCurrencyId(recipient) !== undefined)
        return { errorCode: "INVALID_RECIPIENT", message: `recipient ${recipient} is a currency id, not an account` };
      return undefined;
    },
    // A transfer costs its sender nothing unless its recipient is new to the exchange: that is the activation fee,
    // charged as the payout's rent (a fill's quote, a refund's fee), since only the recipient decides it.
    estimateFee: async () => 0n,
    payoutRent: activationFee,
    balanceOf,
    headHeight: head,
    readDepositAccount: async (user, currency) => ({ balance: await balanceOf(user, currency), allowance: 0n }),
    minimumDeposit: () => 1n,
    minimumPayout: () => 1n,
    async depositSteps(input): Promise<QuoteStep[]> {
      if (input.protocolVersion !== "v2")
        throw new InvalidInputError(
          "INVALID_INPUT",
          `protocolVersion: a withdrawal from chain ${chain.id} is quoted only with protocolVersion "v2" (its authorize step maps the transfer to the order)`,
        );
      const currency = input.currency.address;
      const decimals = decimalsOf(currency);
      const unsigned = transfer(chain.depository, currency, input.amount);
      if (decimals === undefined || !unsigned || !["", "spot"].includes(unsigned.sourceDex))
        throw new InvalidInputError("UNSUPPORTED_CURRENCY", `${currency} is not withdrawn from chain ${chain.id}`);
      const balance = await balanceOf(input.user, currency);
      if (balance < input.amount)
        throw new InvalidInputError(
          "INSUFFICIENT_FUNDS",
          `user ${input.user} can withdraw ${balance} of ${input.currency.symbol} from the exchange; the request needs ${input.amount}`,
        );
      const user = hypevmFamily.address.parse(input.user) as `0x${string}`;
      return [
        ...withdrawalSteps({
          requestId: input.requestId as `0x${string}`,
          orderId: input.orderId as `0x${string}`,
          wallet: user,
          depositor: user,
          depository: chain.depository as `0x${string}`,
          network: chain.network,
          token: unsigned.token,
          dex: unsigned.sourceDex as "" | "spot",
          amount: input.amount,
          decimals,
          nonce: now(),
        }),
      ];
    },
    // The exchange runs nothing ahead of a transfer: simulating a fill is checking what preparing it checks.
    simulateFill: async (order) => {
      const [blockNumber, prepared] = await Promise.all([head(), prepareFill(order)]);
      return { blockNumber, refusal: "refusal" in prepared ? prepared.refusal : undefined };
    },

    readDepositFacts: async (txHash) => (await readLedgerFacts(txHash)).deposits,
    readSettlementFacts: async (txHash) => {
      const { fills, withdrawals } = await readLedgerFacts(txHash);
      return { fills, withdrawals };
    },
    requiredConfirmations: (usdValueE18) => requiredConfirmations(chain.confirmations, usdValueE18),
    async checkDeposit(deposit, required) {
      // The exchange's ledger never changes: a transfer it shows is final once the clock passed its tiers' seconds.
      if (!(await api.txDetails(deposit.txHash)))
        return {
          state: "reorged",
          reorg: {
            source: "fill-check",
            reason: "the exchange does not know the transfer",
            blockHash: deposit.blockHash,
          },
        };
      const depth = Number((await head()) - deposit.blockNumber) + 1;
      return depth >= required ? { state: "final" } : { state: "confirming", missingBlocks: required - depth };
    },

    prepareFill,
    refundSpendsDeposit: false,
    async prepareRefund(refund) {
      const action = transfer(refund.recipient, refund.currency, refund.amount);
      if (!action) return { refusal: `${refund.currency} is not a currency chain ${chain.id} refunds` };
      if (!deps.depository)
        return { refusal: `no depository key for chain ${chain.id} (PERPS_DEPOSITORY_PRIVATE_KEY)` };
      const short = await shortfall(
        { sender: chain.depository, action, recipient: refund.recipient, charged: refund.chargedRent },
        refund.currency,
        refund.amount,
        refund.currency,
      );
      if (short) return { refusal: short.message };
      return {
        transaction: { chainId: chain.id, payload: { signer: "depository", action } satisfies TransferPayload },
      };
    },
    async signTransaction(ledger, transaction: PreparedTransaction): Promise<SignedTransaction> {
      const { signer, action } = transaction.payload as TransferPayload;
      const account = key(signer);
      // A millisecond no earlier than now and after the last one used: the exchange refuses a nonce used before.
      const nonce = await ledger.lockNextNonce(chain.id, account.address, now());
      await ledger.saveNextNonce(chain.id, account.address, nonce + 1);
      const signed = await signExchangeAction(account, { ...action, nonce }, SEND_ASSET_TYPES);
      return { nonce, rawTx: JSON.stringify(signed), txHash: exchangeTransferId(account.address, nonce) };
    },
    async broadcast(signed) {
      const { refused } = await send(signed);
      if (refused) throw new UpstreamFailureError(`chain ${chain.id}'s exchange refused the transfer: ${refused}`);
    },
    async followFill(attempt) {
      if (attempt.nonce === null) throw new Error(`fill ${attempt.txHash} on chain ${chain.id} has no nonce`);
      const mined = async () => {
        const found = await findTransfer(attempt.solver, attempt.nonce!);
        return (
          found && {
            state: "mined" as const,
            txHash: found.hash,
            blockNumber: BigInt(Math.floor(found.time / 1000)),
            // The activation fee of a new recipient, perps USDC the solver paid on top (the ledger's `fee`).
            fee: parseExchangeAmount(String(found.delta.fee ?? "0"), decimalsOf(PERPS_USDC_CURRENCY)!) ?? 0n,
          }
        );
      };
      const before = await mined();
      if (before) return before;
      const { refused } = await send(attempt);
      const after = await mined();
      if (after) return after;
      // The exchange spends a nonce it refused a transfer for: this one can never pay.
      if (refused) return { state: "cancelled", nonceSpentBy: attempt.txHash, neverAccepted: true };
      return { state: "in-flight", txHash: attempt.txHash, action: "re-sent" };
    },
    async readReceipt(txHash) {
      // A transfer of ours is stored under its signer and nonce until the exchange names it: found in the signer's
      // ledger, its receipt carries the exchange's hash, which the caller stores in its place.
      const ours = parseExchangeTransferId(txHash);
      const signedByUs =
        ours && [solverAddress, chain.depository].some((signer) => signer.toLowerCase() === ours.signer);
      const found = signedByUs ? await findTransfer(ours.signer, ours.nonce) : await api.txDetails(txHash);
      if (!found) return null;
      const second = BigInt(Math.floor(found.time / 1000));
      // No gas on the exchange: a transfer pays nothing beyond what it moves.
      return {
        succeeded: true,
        blockNumber: second,
        blockHash: found.hash,
        timestamp: second,
        fee: 0n,
        txHash: found.hash,
      };
    },
  };
}
