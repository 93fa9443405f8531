import { randomBytes } from "node:crypto";
import { type Address, concat, getAddress, type Hex, keccak256, toHex } from "viem";
import { formatExchangeAmount, parseExchangeAmount } from "../../src/chains/hypevm/exchangeAmount.js";
import { transferFee } from "../../src/chains/hypevm/transferFee.js";
import { type ExchangeToken, PERPS_USDC_DECIMALS, tokenOfSpec } from "./exchangeTokens.js";
import { actionNonce, type ExchangeRequest, type UserSignedAction } from "./parseExchangeRequest.js";
import { recoverActionSigner } from "./recoverActionSigner.js";
import { createSignerNonces } from "./signerNonces.js";

/** The exchange's network names; the devnet is one of them and refuses actions signed for the other. */
export type ExchangeNetwork = "Mainnet" | "Testnet";

export type ExchangeResponse = { status: "ok"; response: { type: "default" } } | { status: "err"; response: string };

/** One entry of `userNonFundingLedgerUpdates`, listed for the sender and for the destination. */
export type LedgerUpdate = { time: number; hash: Hex; delta: Record<string, unknown> };

/** An accepted action, as the explorer's `txDetails` shows it. */
export type ExchangeTx = {
  action: UserSignedAction;
  block: number;
  error: null;
  hash: Hex;
  time: number;
  user: Address;
};

/** Where a balance sits: the perps account (USDC only) or the spot account (any token). */
type Side = "perps" | "spot";

export type ExchangeLedger = {
  network: ExchangeNetwork;
  tokens: readonly ExchangeToken[];
  /** Credits an account out of band (genesis funding, tests); perps USDC and spot amounts in base units. */
  fund(user: Address, funds: { perpsUsdc?: bigint; spot?: Record<string, bigint> }): void;
  /** Verifies and applies one signed `POST /exchange` request, all or nothing. */
  submit(request: ExchangeRequest): Promise<ExchangeResponse>;
  perpsBalance(user: string): bigint;
  /** Whether the exchange has seen the account (it has held funds): a transfer to one it has not costs the fee. */
  isKnown(user: string): boolean;
  spotBalances(user: string): Array<{ token: ExchangeToken; amount: bigint }>;
  updates(user: string): readonly LedgerUpdate[];
  tx(hash: string): ExchangeTx | undefined;
};

const err = (response: string): ExchangeResponse => ({ status: "err", response });
const ok: ExchangeResponse = { status: "ok", response: { type: "default" } };

/**
 * The devnet exchange's state: perps USDC (8 decimals) and spot balances per address, each signer's nonces, and
 * the non-funding ledger. Accepts the user-signed transfers `usdSend`, `spotSend` and `sendAsset` (between the
 * perps account, `""`, and `"spot"`; the devnet has no other dexes and no sub-accounts). A transfer to an account the
 * exchange has never seen costs its sender the activation fee (1 USDC, from the USDC of the side it sends from), as
 * the exchange charges it; other transfers carry no fee.
 */
export function createExchangeLedger(options: {
  network: ExchangeNetwork;
  tokens: readonly ExchangeToken[];
  now?: () => number;
}): ExchangeLedger {
  const { network, tokens, now = Date.now } = options;
  const usdc = tokens.find((t) => t.name === "USDC");
  if (!usdc) throw new Error("the exchange needs a USDC token");
  const nonces = createSignerNonces(now);
  const perps = new Map<string, bigint>();
  const spot = new Map<string, Map<number, bigint>>();
  // An address exists once it has held funds; actions signed by any other are refused, as the exchange does.
  const known = new Set<string>();
  const ledger = new Map<string, LedgerUpdate[]>();
  const txs = new Map<string, ExchangeTx>();
  let block = 0;
  const salt = toHex(randomBytes(8));

  const balance = (user: string, side: Side, token: ExchangeToken) =>
    side === "perps" ? (perps.get(user) ?? 0n) : (spot.get(user)?.get(token.index) ?? 0n);
  const add = (user: string, side: Side, token: ExchangeToken, amount: bigint) => {
    known.add(user);
    if (side === "perps") perps.set(user, (perps.get(user) ?? 0n) + amount);
    else {
      const held = spot.get(user) ?? new Map<number, bigint>();
      held.set(token.index, (held.get(token.index) ?? 0n) + amount);
      spot.set(user, held);
    }
  };
  const sideOfDex = (dex: string): Side | undefined => (dex === "" ? "perps" : dex === "spot" ? "spot" : undefined);

  /** What a valid action moves, or why it cannot. */
  const transferOf = (action: UserSignedAction, user: string) => {
    if (action.type === "usdSend") {
      const amount = parseExchangeAmount(action.amount, PERPS_USDC_DECIMALS);
      if (amount === undefined || amount === 0n) return `Invalid amount ${action.amount}`;
      return { from: "perps" as Side, to: "perps" as Side, token: usdc, amount };
    }
    const token = tokenOfSpec(tokens, action.token);
    if (!token) return `Invalid token ${action.token}`;
    const amount = parseExchangeAmount(action.amount, token.weiDecimals);
    if (amount === undefined || amount === 0n) return `Invalid amount ${action.amount}`;
    if (action.type === "spotSend") return { from: "spot" as Side, to: "spot" as Side, token, amount };
    if (action.fromSubAccount !== "") return "Sub-accounts do not exist on the devnet exchange";
    const from = sideOfDex(action.sourceDex);
    const to = sideOfDex(action.destinationDex);
    if (!from || !to) return `Unknown dex ${from ? action.destinationDex : action.sourceDex}`;
    if ((from === "perps" || to === "perps") && token !== usdc)
      return `Token ${token.name} cannot be sent to or from perps`;
    if (from === to && action.destination.toLowerCase() === user) return "Cannot send to self";
    return { from, to, token, amount };
  };

  const deltaOf = (action: UserSignedAction, user: string, token: ExchangeToken, amount: bigint, fee: bigint) => {
    const destination = action.destination.toLowerCase();
    const human = formatExchangeAmount(amount, token.weiDecimals);
    // The devnet prices nothing but USDC: other tokens' usdcValue is 0.
    const usdcValue = token === usdc ? human : "0.0";
    const paid = formatExchangeAmount(fee, PERPS_USDC_DECIMALS);
    const fees = { fee: paid, nativeTokenFee: "0.0" };
    if (action.type === "usdSend") return { type: "internalTransfer", usdc: human, user, destination, fee: paid };
    if (action.type === "spotSend")
      return {
        type: "spotTransfer",
        token: token.name,
        amount: human,
        usdcValue,
        user,
        destination,
        ...fees,
        nonce: action.time,
        feeToken: fee ? usdc.name : "",
      };
    return {
      type: "send",
      user,
      destination,
      sourceDex: action.sourceDex,
      destinationDex: action.destinationDex,
      token: token.name,
      amount: human,
      usdcValue,
      ...fees,
      nonce: action.nonce,
      feeToken: fee ? usdc.name : "",
    };
  };

  const record = (user: string, entry: LedgerUpdate) => {
    const list = ledger.get(user) ?? [];
    list.push(entry);
    ledger.set(user, list);
  };

  return {
    network,
    tokens,
    fund(user, funds) {
      const key = user.toLowerCase();
      if (funds.perpsUsdc) add(key, "perps", usdc, funds.perpsUsdc);
      for (const [name, amount] of Object.entries(funds.spot ?? {})) {
        const token = tokens.find((t) => t.name === name);
        if (!token) throw new Error(`unknown token ${name}`);
        add(key, "spot", token, amount);
      }
      known.add(key);
    },
    async submit(request) {
      const { action } = request;
      if (action.hyperliquidChain !== network)
        return err(`Invalid hyperliquidChain ${action.hyperliquidChain}: this exchange is ${network}`);
      if (request.vaultAddress) return err("Vault and sub-account signing is not supported for this action");
      if (request.nonce !== actionNonce(action))
        return err("Invalid nonce: the request nonce differs from the action's");
      const signer = await recoverActionSigner(request);
      if (!signer) return err("Invalid signature");
      // Everything below runs in one turn of the event loop: checks and transfer are atomic.
      const user = signer.toLowerCase();
      if (!known.has(user)) return err(`User or API Wallet ${user} does not exist.`);
      const nonceRefusal = nonces.refusal(user, request.nonce);
      if (nonceRefusal) return err(nonceRefusal);
      const transfer = transferOf(action, user);
      if (typeof transfer === "string") return err(transfer);
      // A signed action that reached the exchange spends its nonce even when refused: it can never run later.
      nonces.use(user, request.nonce);
      const { from, to, token, amount } = transfer;
      if (balance(user, from, token) < amount) return err("Insufficient balance for token transfer");
      const destination = action.destination.toLowerCase();
      const fee = transferFee(!known.has(destination));
      if (balance(user, from, usdc) - (token === usdc ? amount : 0n) < fee)
        return err("Insufficient USDC balance for token transfer gas");
      add(user, from, token, -amount);
      if (fee) add(user, from, usdc, -fee);
      add(destination, to, token, amount);
      const time = now();
      // As the exchange's, a hash of where the transfer was committed (its block and index there), which no one can
      // know before: salted per ledger, so two devnets never share hashes.
      const hash = keccak256(concat([salt, toHex(++block, { size: 8 }), toHex(0, { size: 4 })]));
      txs.set(hash, { action, block, error: null, hash, time, user: getAddress(user) });
      const entry = { time, hash, delta: deltaOf(action, user, token, amount, fee) };
      record(user, entry);
      if (destination !== user) record(destination, entry);
      return ok;
    },
    perpsBalance: (user) => perps.get(user.toLowerCase()) ?? 0n,
    isKnown: (user) => known.has(user.toLowerCase()),
    spotBalances: (user) =>
      [...(spot.get(user.toLowerCase()) ?? new Map<number, bigint>())].map(([index, amount]) => ({
        token: tokens.find((t) => t.index === index)!,
        amount,
      })),
    updates: (user) => ledger.get(user.toLowerCase()) ?? [],
    tx: (hash) => txs.get(hash.toLowerCase()),
  };
}
