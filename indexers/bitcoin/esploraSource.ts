import type { BitcoinNetworkName } from "../../src/chains/bitcoin/bitcoinFamily.js";
import type { EsploraTx } from "../../src/chains/bitcoin/createEsploraClient.js";
import { type KnownDepositAddresses, esploraTxFacts, txAddresses } from "../../src/chains/bitcoin/esploraTxFacts.js";
import type { BlockSource, SourceBlock } from "../poller/blockWalk.js";

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
  /** The solver's wallet, which pays EVM → BTC fills; without it no fill is read. */
  solver?: string;
  /** How long one request may take before it fails (the poller backs off and retries). */
  timeoutMs?: number;
  /**
   * Deposit addresses (`useDepositAddress`), from Postgres: which of some addresses are ones (with the order a
   * payment to each pays), and those whose request still waits for its payment or its block (watched in the mempool).
   */
  depositAddresses?: {
    known(addresses: readonly string[]): Promise<KnownDepositAddresses>;
    watched(): Promise<readonly string[]>;
  };
};

/** Esplora serves a block's transactions 25 at a time. */
const TXS_PAGE = 25;

/**
 * The poller source of a Bitcoin chain, over the Esplora REST API. Every output paying the depository is a deposit
 * (`position` its vout) of the order named by the transaction's OP_RETURN (`parseDepositMemo`), or of none
 * (`NO_ORDER`) when there is no valid one; the depositor is the memo's, else the first input's address.
 * Transactions spending the depository are no deposits (their change back is not paid in); one whose OP_RETURN
 * names an order is that order's refund: each output to another address is a withdrawal fact. A transaction spending
 * the solver's wallet whose OP_RETURN names an order is its fill (EVM → BTC): each output to neither the solver nor
 * the depository is a fill fact. Fills are read from blocks only: `success` waits for the payout's block.
 */
export function esploraSource(options: EsploraSourceOptions): BlockSource {
  const { esploraUrl, timeoutMs = 10_000 } = options;
  const facts = esploraTxFacts(options);

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
  const known = async (txs: readonly EsploraTx[]): Promise<KnownDepositAddresses> =>
    options.depositAddresses ? options.depositAddresses.known(txs.flatMap(txAddresses)) : new Map();
  const blockHash = async (height: number) => (await (await get(`/block-height/${height}`))?.text())?.trim();

  return {
    async head() {
      const hash = (await (await get("/blocks/tip/hash"))?.text())?.trim();
      if (!hash) throw new Error("esplora has no tip");
      return { height: (await getJson<EsploraBlock>(`/block/${hash}`)).height, hash };
    },
    blockHash,
    // Esplora lists an address's newest 50 mempool transactions: more deposits than that waiting at once are
    // seen when they are mined.
    async mempoolDeposits() {
      const watched = [options.depository, ...((await options.depositAddresses?.watched()) ?? [])];
      const byTxid = new Map<string, EsploraTx>();
      for (const address of watched)
        for (const tx of await getJson<EsploraTx[]>(`/address/${address}/txs/mempool`)) byTxid.set(tx.txid, tx);
      const txs = [...byTxid.values()];
      const addresses = await known(txs);
      return txs.flatMap((tx) => facts.deposits(tx, addresses));
    },
    async block(height) {
      const hash = await blockHash(height);
      if (!hash) throw new Error(`esplora has no block at height ${height}`);
      // Read by hash from here on: a reorg meanwhile cannot mix two blocks' transactions.
      const block = await getJson<EsploraBlock>(`/block/${hash}`);
      const txs: EsploraTx[] = [];
      for (let start = 0; start < block.tx_count; start += TXS_PAGE)
        txs.push(...(await getJson<EsploraTx[]>(`/block/${hash}/txs/${start}`)));
      const addresses = await known(txs);
      return {
        height,
        hash,
        parentHash: block.previousblockhash ?? "",
        timestamp: block.timestamp,
        deposits: txs.flatMap((tx) => facts.deposits(tx, addresses)),
        fills: txs.flatMap(facts.fills),
        withdrawals: txs.flatMap((tx) => facts.withdrawals(tx, addresses)),
      };
    },
  };
}
