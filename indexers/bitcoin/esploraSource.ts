import { address, script as bscript } from "bitcoinjs-lib";
import { NO_ORDER } from "../../schema/chainFacts.js";
import {
  BITCOIN_NATIVE_CURRENCY,
  BITCOIN_NETWORKS,
  type BitcoinNetworkName,
  bitcoinFamily,
} from "../../src/chains/bitcoin/bitcoinFamily.js";
import type { PollerSource, SourceBlock } from "../poller/pollerSource.js";
import { parseDepositMemo } from "./parseDepositMemo.js";

/** The fields of Esplora's transaction JSON the source reads (amounts in satoshis). */
type EsploraOutput = { scriptpubkey: string; scriptpubkey_type: string; scriptpubkey_address?: string; value: number };
type EsploraTx = { txid: string; fee: number; vin: { prevout: EsploraOutput | null }[]; vout: EsploraOutput[] };
type EsploraBlock = {
  id: string;
  height: number;
  previousblockhash?: string | null;
  timestamp: number;
  tx_count: number;
};

export type EsploraSourceOptions = {
  /** Base URL of the Esplora REST API (Blockstream's, a self-hosted electrs, the devnet's), no trailing slash. */
  esploraUrl: string;
  network: BitcoinNetworkName;
  /** The address deposits pay. */
  depository: string;
  /** How long one request may take before it fails (the poller backs off and retries). */
  timeoutMs?: number;
};

/** Esplora serves a block's transactions 25 at a time. */
const TXS_PAGE = 25;

/**
 * The poller source of a Bitcoin chain, over the Esplora REST API. Every output paying the depository is a deposit
 * (`logIndex` its vout) of the order named by the transaction's OP_RETURN (`parseDepositMemo`), or of none
 * (`NO_ORDER`) when there is no valid one; the depositor is the memo's, else the first input's address.
 * Transactions spending the depository are no deposits (their change back is not paid in); one whose OP_RETURN
 * names an order is that order's refund: each output to another address is a withdrawal fact. Fills are not read
 * yet: they come with the Bitcoin solver (its address, its OP_RETURN).
 */
export function esploraSource(options: EsploraSourceOptions): PollerSource {
  const { esploraUrl, timeoutMs = 10_000 } = options;
  const network = BITCOIN_NETWORKS[options.network];
  const parseAddress = bitcoinFamily([options.network]).address.parse;
  const depositoryScript = Buffer.from(address.toOutputScript(options.depository, network)).toString("hex");

  async function get(path: string): Promise<Response | undefined> {
    const response = await fetch(`${esploraUrl}${path}`, { signal: AbortSignal.timeout(timeoutMs) });
    if (response.status === 404) return undefined;
    if (!response.ok) throw new Error(`esplora GET ${path} answered ${response.status}: ${await response.text()}`);
    return response;
  }
  async function getJson<T>(path: string): Promise<T> {
    const response = await get(path);
    if (!response) throw new Error(`esplora GET ${path}: not found`);
    return (await response.json()) as T;
  }
  const blockHash = async (height: number) => (await (await get(`/block-height/${height}`))?.text())?.trim();

  function memoOf(tx: EsploraTx) {
    const opReturn = tx.vout.find((output) => output.scriptpubkey_type === "op_return");
    const payload = opReturn && bscript.decompile(Buffer.from(opReturn.scriptpubkey, "hex"))?.[1];
    return payload instanceof Uint8Array ? parseDepositMemo(payload, parseAddress) : undefined;
  }
  const spendsDepository = (tx: EsploraTx) => tx.vin.some((input) => input.prevout?.scriptpubkey === depositoryScript);

  function deposits(tx: EsploraTx): SourceBlock["deposits"] {
    if (spendsDepository(tx)) return [];
    const memo = memoOf(tx);
    const txFrom = tx.vin[0]?.prevout?.scriptpubkey_address ?? "";
    return tx.vout.flatMap((output, vout) =>
      output.scriptpubkey === depositoryScript
        ? [
            {
              txHash: tx.txid,
              logIndex: vout,
              orderId: memo?.orderId ?? NO_ORDER,
              depositor: memo?.depositor ?? txFrom,
              currency: BITCOIN_NATIVE_CURRENCY,
              amount: BigInt(output.value),
              txFrom,
              txFee: BigInt(tx.fee),
            },
          ]
        : [],
    );
  }

  // Only the depository's key can spend its outputs, so a spend naming an order is that order's refund.
  function withdrawals(tx: EsploraTx): SourceBlock["withdrawals"] {
    const memo = spendsDepository(tx) ? memoOf(tx) : undefined;
    if (!memo) return [];
    return tx.vout.flatMap((output, vout) =>
      output.scriptpubkey === depositoryScript || output.scriptpubkey_type === "op_return"
        ? []
        : [
            {
              txHash: tx.txid,
              logIndex: vout,
              orderId: memo.orderId,
              currency: BITCOIN_NATIVE_CURRENCY,
              recipient: output.scriptpubkey_address ?? "",
              amount: BigInt(output.value),
            },
          ],
    );
  }

  return {
    async head() {
      const hash = (await (await get("/blocks/tip/hash"))?.text())?.trim();
      if (!hash) throw new Error("esplora has no tip");
      return { height: (await getJson<EsploraBlock>(`/block/${hash}`)).height, hash };
    },
    blockHash,
    async block(height) {
      const hash = await blockHash(height);
      if (!hash) throw new Error(`esplora has no block at height ${height}`);
      // Read by hash from here on: a reorg meanwhile cannot mix two blocks' transactions.
      const block = await getJson<EsploraBlock>(`/block/${hash}`);
      const txs: EsploraTx[] = [];
      for (let start = 0; start < block.tx_count; start += TXS_PAGE)
        txs.push(...(await getJson<EsploraTx[]>(`/block/${hash}/txs/${start}`)));
      return {
        height,
        hash,
        parentHash: block.previousblockhash ?? "",
        timestamp: block.timestamp,
        deposits: txs.flatMap(deposits),
        fills: [],
        withdrawals: txs.flatMap(withdrawals),
      };
    },
  };
}
