import type { WebSocket } from "ws";
import { accountJson } from "./accountJson.js";
import type { Commitment, LandedTransaction, SvmLedger } from "./svmLedger.js";
import { decodeMint } from "./tokenAccountState.js";

type Subscription =
  | { kind: "signature"; signature: string; commitment: Commitment }
  | { kind: "logs"; mentions: string | null; commitment: Commitment }
  | { kind: "slot" }
  | { kind: "account"; key: string; commitment: Commitment; encoding: string; last: string };

const notificationMethods = {
  signature: "signatureNotification",
  logs: "logsNotification",
  slot: "slotNotification",
  account: "accountNotification",
} as const;

/**
 * Solana's websocket pubsub over a ledger: `signatureSubscribe`, `logsSubscribe` (all or one `mentions` address),
 * `slotSubscribe` and `accountSubscribe`, each notified when the subscription's commitment is reached, and their
 * `*Unsubscribe`. `connect` serves one websocket; `close` detaches from the ledger.
 */
export function solanaPubsub(ledger: SvmLedger) {
  let nextId = 0;
  const subscriptions = new Map<number, { socket: WebSocket; sub: Subscription }>();
  const commitments: Commitment[] = ["processed", "confirmed", "finalized"];
  let seen = Object.fromEntries(commitments.map((c) => [c, ledger.slot(c)])) as Record<Commitment, number>;

  const notify = (id: number, socket: WebSocket, kind: Subscription["kind"], result: unknown) =>
    socket.send(
      JSON.stringify({ jsonrpc: "2.0", method: notificationMethods[kind], params: { result, subscription: id } }),
    );
  const context = (commitment: Commitment) => ({ slot: ledger.slot(commitment) });

  function checkSignature(id: number) {
    const entry = subscriptions.get(id);
    if (!entry || entry.sub.kind !== "signature") return;
    const tx = ledger.transaction(entry.sub.signature);
    if (!tx || tx.slot > ledger.slot(entry.sub.commitment)) return;
    // A signature subscription ends with its one notification, as on Solana.
    subscriptions.delete(id);
    notify(id, entry.socket, "signature", { context: { slot: tx.slot }, value: { err: tx.err?.json ?? null } });
  }

  function checkAccount(id: number) {
    const entry = subscriptions.get(id);
    if (!entry || entry.sub.kind !== "account") return;
    const { sub } = entry;
    const value = accountView(sub.key, sub.commitment, sub.encoding);
    const text = JSON.stringify(value);
    if (text === sub.last) return;
    sub.last = text;
    notify(id, entry.socket, "account", { context: context(sub.commitment), value });
  }

  function accountView(key: string, commitment: Commitment, encoding: string) {
    const mintDecimals = (mint: string) => {
      const state = ledger.account(mint, "processed");
      return state ? decodeMint(state.owner, state.data)?.decimals : undefined;
    };
    return accountJson(ledger.account(key, commitment), { encoding, mintDecimals });
  }

  function logsReached(txs: LandedTransaction[], commitment: Commitment) {
    for (const [id, { socket, sub }] of subscriptions) {
      if (sub.kind !== "logs" || sub.commitment !== commitment) continue;
      for (const tx of txs) {
        if (sub.mentions && !tx.accountKeys.some((k) => k.toBase58() === sub.mentions)) continue;
        notify(id, socket, "logs", {
          context: { slot: tx.slot },
          value: { signature: tx.signature, err: tx.err?.json ?? null, logs: tx.logs },
        });
      }
    }
  }

  const offTransaction = ledger.onTransaction((tx) => {
    logsReached([tx], "processed");
    for (const id of subscriptions.keys()) {
      checkSignature(id);
      checkAccount(id);
    }
  });
  const offSlot = ledger.onSlot((slot) => {
    const now = Object.fromEntries(commitments.map((c) => [c, ledger.slot(c)])) as Record<Commitment, number>;
    for (const c of ["confirmed", "finalized"] as const)
      if (now[c] > seen[c]) logsReached(ledger.transactionsInSlots(seen[c], now[c]), c);
    seen = now;
    for (const [id, { socket, sub }] of subscriptions) {
      if (sub.kind === "slot") notify(id, socket, "slot", { parent: slot - 1, root: now.finalized, slot });
      else if (sub.kind === "signature") checkSignature(id);
      else if (sub.kind === "account") checkAccount(id);
    }
  });

  function subscribe(params: unknown[], method: string, socket: WebSocket): number {
    const config = (params[method === "slotSubscribe" ? 0 : 1] ?? {}) as { commitment?: Commitment; encoding?: string };
    const commitment = config.commitment ?? "finalized";
    if (!commitments.includes(commitment)) throw new Error(`Invalid params: unknown variant \`${commitment}\`.`);
    let sub: Subscription;
    if (method === "signatureSubscribe") {
      if (typeof params[0] !== "string") throw new Error("Invalid params: expected a signature.");
      sub = { kind: "signature", signature: params[0], commitment };
    } else if (method === "logsSubscribe") {
      const filter = params[0];
      if (filter === "all" || filter === "allWithVotes") sub = { kind: "logs", mentions: null, commitment };
      else {
        const mentions = (filter as { mentions?: unknown } | undefined)?.mentions;
        if (!Array.isArray(mentions) || mentions.length !== 1 || typeof mentions[0] !== "string")
          throw new Error("Invalid Request: Only 1 address supported");
        sub = { kind: "logs", mentions: mentions[0], commitment };
      }
    } else if (method === "slotSubscribe") sub = { kind: "slot" };
    else {
      if (typeof params[0] !== "string") throw new Error("Invalid params: expected an address.");
      const encoding = config.encoding ?? "base58";
      sub = { kind: "account", key: params[0], commitment, encoding, last: "" };
      sub.last = JSON.stringify(accountView(sub.key, commitment, encoding));
    }
    const id = nextId++;
    subscriptions.set(id, { socket, sub });
    return id;
  }

  function connect(socket: WebSocket) {
    socket.on("message", (raw) => {
      let request: { id?: unknown; method?: string; params?: unknown[] };
      try {
        request = JSON.parse(String(raw));
      } catch {
        socket.send(JSON.stringify({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error" }, id: null }));
        return;
      }
      // web3.js pings with a notification (no id) every few seconds: nothing to answer.
      if (request.id === undefined || request.id === null) return;
      const reply = (body: object) => socket.send(JSON.stringify({ jsonrpc: "2.0", ...body, id: request.id }));
      const method = request.method ?? "";
      const params = Array.isArray(request.params) ? request.params : [];
      if (/^(signature|logs|slot|account)Subscribe$/.test(method)) {
        let id: number;
        try {
          id = subscribe(params, method, socket);
        } catch (error) {
          reply({ error: { code: -32602, message: (error as Error).message } });
          return;
        }
        reply({ result: id });
        checkSignature(id);
      } else if (/^(signature|logs|slot|account)Unsubscribe$/.test(method)) {
        const id = Number(params[0]);
        const entry = subscriptions.get(id);
        if (entry?.socket !== socket) reply({ error: { code: -32602, message: "Invalid subscription id." } });
        else {
          subscriptions.delete(id);
          reply({ result: true });
        }
      } else reply({ error: { code: -32601, message: "Method not found" } });
    });
    socket.on("close", () => {
      for (const [id, entry] of subscriptions) if (entry.socket === socket) subscriptions.delete(id);
    });
  }

  return {
    connect,
    close() {
      offTransaction();
      offSlot();
      subscriptions.clear();
    },
  };
}
