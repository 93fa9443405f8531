import { UpstreamFailureError, UpstreamTimeoutError } from "../../domain/errors.js";
import { BroadcastRefusedError } from "./BroadcastRefusedError.js";

/** The fields of Esplora's JSON Crossfill reads (amounts in satoshis); names as Esplora's API.md gives them. */
export type EsploraStatus = { confirmed: boolean; block_height?: number; block_hash?: string; block_time?: number };
export type EsploraUtxo = { txid: string; vout: number; value: number; status: EsploraStatus };
export type EsploraOutput = {
  scriptpubkey: string;
  scriptpubkey_type: string;
  scriptpubkey_address?: string;
  value: number;
};
export type EsploraTx = {
  txid: string;
  fee: number;
  vin: { txid: string; vout: number; prevout: EsploraOutput | null }[];
  vout: EsploraOutput[];
  status: EsploraStatus;
};
type TxoStats = { funded_txo_sum: number; spent_txo_sum: number };
export type EsploraAddressStats = { chain_stats: TxoStats; mempool_stats: TxoStats };

export type EsploraClient = ReturnType<typeof createEsploraClient>;

/**
 * The Esplora REST API of one Bitcoin chain (Blockstream's, a self-hosted electrs, the devnet's), as the adapter
 * uses it. A 404 is `undefined`; a timeout is REQUEST_TIMED_OUT, any other failure RPC_HTTP_ERROR (both retryable),
 * as the EVM adapter translates its node's failures.
 */
export function createEsploraClient(options: { esploraUrl: string; chainId: number; timeoutMs?: number }) {
  const { esploraUrl, chainId, timeoutMs = 10_000 } = options;

  /** The body of a 2xx answer, undefined for a 404; read whole inside the timeout, failures translated. */
  async function request(path: string, init?: RequestInit): Promise<string | undefined> {
    let status: number;
    let body: string;
    try {
      const response = await fetch(`${esploraUrl}${path}`, { ...init, signal: AbortSignal.timeout(timeoutMs) });
      status = response.status;
      body = await response.text();
    } catch (error) {
      if (error instanceof DOMException && (error.name === "TimeoutError" || error.name === "AbortError"))
        throw new UpstreamTimeoutError(`chain ${chainId}'s Esplora did not answer in time`, error);
      throw new UpstreamFailureError(
        `chain ${chainId}'s Esplora could not be reached: ${(error as Error).message}`,
        error,
      );
    }
    if (status === 404) return undefined;
    // POST /tx answers 400 with the node's reason when the node refuses the transaction.
    if (init?.method === "POST" && status >= 400 && status < 500)
      throw new BroadcastRefusedError(`chain ${chainId}'s node refused the transaction: ${body}`);
    if (status < 200 || status >= 300)
      throw new UpstreamFailureError(
        `chain ${chainId}'s Esplora answered ${status} to ${init?.method ?? "GET"} ${path}: ${body}`,
      );
    return body;
  }
  async function json<T>(path: string): Promise<T | undefined> {
    const body = await request(path);
    return body === undefined ? undefined : (JSON.parse(body) as T);
  }
  async function required<T>(path: string): Promise<T> {
    const found = await json<T>(path);
    if (found === undefined) throw new UpstreamFailureError(`chain ${chainId}'s Esplora has no ${path}`);
    return found;
  }

  return {
    utxos: (address: string) => required<EsploraUtxo[]>(`/address/${address}/utxo`),
    addressStats: (address: string) => required<EsploraAddressStats>(`/address/${address}`),
    /** Transactions paying or spending an address that wait in the mempool (Esplora lists the newest 50). */
    mempoolTxs: (address: string) => required<EsploraTx[]>(`/address/${address}/txs/mempool`),
    /** sat/vB by confirmation target in blocks ("1", "2", … "1008"). */
    feeEstimates: () => required<Record<string, number>>("/fee-estimates"),
    tx: (txid: string) => json<EsploraTx>(`/tx/${txid}`),
    /** Whether an output is spent, and by which transaction (mempool included). */
    outspend: (txid: string, vout: number) =>
      required<{ spent: boolean; txid?: string }>(`/tx/${txid}/outspend/${vout}`),
    /**
     * Sends a raw transaction; Esplora answers its txid, or 400 with the node's reason: BroadcastRefusedError. Any
     * other failure (timeout, network, 5xx) is no refusal: the transaction may have reached the node all the same.
     */
    async broadcast(hex: string): Promise<string> {
      const txid = await request("/tx", { method: "POST", body: hex });
      if (txid === undefined) throw new UpstreamFailureError(`chain ${chainId}'s Esplora has no POST /tx`);
      return txid.trim();
    },
    txStatus: (txid: string) => json<EsploraStatus>(`/tx/${txid}/status`),
    async tipHeight(): Promise<number> {
      const text = await request("/blocks/tip/height");
      if (text === undefined || !/^\d+$/.test(text.trim()))
        throw new UpstreamFailureError(`chain ${chainId}'s Esplora has no tip`);
      return Number(text.trim());
    },
  };
}
