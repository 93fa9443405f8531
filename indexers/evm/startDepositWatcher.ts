/**
 * The head watcher of one EVM chain: records the Depository's deposits of each new block as soon as the node announces
 * it, before Ponder has indexed it, so a deposit reaches `pending` without waiting for Ponder's row (Ponder commits a
 * block some 30–80 ms after the node announces it). Ponder stays the complete record: it writes the same deposit under
 * the same key, and covers every block this watcher missed (it runs only while its websocket is up, and never
 * backfills). The facts go to deposit_facts (source HEAD_WATCHER_SOURCE), whose insert trigger wakes the reconcile.
 *
 * The deposits come pushed by an `eth_subscribe` to the Depository's Deposit logs, so only their receipts (for the
 * sender and the fee Ponder records) are asked for, over HTTP in one JSON-RPC batch per block: asked one by one over
 * the socket, the node's answers after the first waited for this side's delayed ACK (the node's socket sends small
 * writes by Nagle's algorithm), 40–50 ms in one block of four under the pipeline benchmark's load. A node that refuses
 * log subscriptions is asked for each new head's logs instead (`eth_getLogs`), one round trip more.
 *
 * Reorgs: a log the node announces as `removed` deletes the facts of its block at once. And when a head does not follow
 * the previous one, the blocks this watcher recorded facts in are checked against the node, and the facts of those no
 * longer in the chain are deleted, as Ponder deletes its rows. A deposit applied before that is still checked against
 * the node before its fill (checkEvmDeposit).
 */
import type pg from "pg";
import type { Logger } from "pino";
import {
  BlockNotFoundError,
  type Hex,
  encodeEventTopics,
  type PublicClient,
  type WebSocketTransport,
  createPublicClient,
  getAbiItem,
  hexToBigInt,
  http,
  webSocket,
} from "viem";
import { depositoryAbi } from "../../contracts/abis.js";
import {
  HEAD_WATCHER_SOURCE,
  deleteDepositFactsOfBlocks,
  depositFactBlocks,
  insertDepositFacts,
} from "../../schema/chainFacts.js";
import type { EvmChainConfig } from "../../src/chains/chainConfig.js";
import { depositFactsOfReceipt } from "../../src/chains/evm/depositFactsOfReceipt.js";
import { backoffDelay } from "../../src/runtime/backoffDelay.js";

export type StartDepositWatcherOptions = {
  pool: pg.Pool;
  logger: Logger;
  /** An EVM chain with a `wsUrl`: heads come by subscription (polling would be no faster than Ponder). */
  chain: EvmChainConfig & { wsUrl: string };
  /** How many blocks back a reorg is looked for; default 64. */
  reorgDepth?: number;
  /** Waits between reconnection attempts: base and cap; default 500 ms and 30 s. */
  reconnect?: { baseMs: number; maxMs: number };
  /** True once the process is shutting down: the node may be gone first (Ctrl-C reaches the devnet too), unremarked. */
  stopping?: () => boolean;
};

export type DepositWatcherHealth = {
  chainId: number;
  connected: boolean;
  /** How deposits reach the watcher on the current socket: pushed by a log subscription, or asked for on each head. */
  deposits: "log subscription" | "eth_getLogs per head" | null;
  /** The last head processed, or null before the first. */
  head: number | null;
  /** Deposits recorded since start (new ones only). */
  recorded: number;
  /** Facts deleted because a reorg orphaned their block. */
  orphaned: number;
  lastError: string | null;
};

export type DepositWatcher = { health(): DepositWatcherHealth; stop(): Promise<void> };

type Head = { number: bigint; hash: Hex; parentHash: Hex; timestamp: bigint };

/** A Deposit log as a `logs` subscription pushes it; `blockTimestamp` where the node includes it (anvil, geth ≥ 1.16). */
type PushedLog = { blockHash: Hex; blockNumber: Hex; blockTimestamp?: Hex; transactionHash: Hex; removed?: boolean };

const depositEvent = getAbiItem({ abi: depositoryAbi, name: "Deposit" });
const depositTopics = encodeEventTopics({ abi: depositoryAbi, eventName: "Deposit" });

export function startDepositWatcher(options: StartDepositWatcherOptions): DepositWatcher {
  const { pool, chain } = options;
  const logger = options.logger.child({ chainId: chain.id, component: "deposit-watcher" });
  const reorgDepth = BigInt(options.reorgDepth ?? 64);
  const reconnect = options.reconnect ?? { baseMs: 500, maxMs: 30_000 };
  const receiptsClient = createPublicClient({
    transport: http(chain.rpcUrl, {
      batch: (chain.rpcBatchSize ?? 50) > 1 ? { batchSize: chain.rpcBatchSize ?? 50, wait: 0 } : false,
      timeout: chain.rpcTimeoutMs ?? 10_000,
      retryCount: 1,
    }),
  });
  const health: DepositWatcherHealth = {
    chainId: chain.id,
    connected: false,
    deposits: null,
    head: null,
    recorded: 0,
    orphaned: 0,
    lastError: null,
  };

  /** Blocks this watcher has facts in (hash → number), within `reorgDepth` of the head. */
  const factBlocks = new Map<string, bigint>();
  /** Recent heads' times (hash → timestamp), for pushed logs that do not carry their block's. */
  const headTimes = new Map<string, { number: bigint; timestamp: bigint }>();
  // Logs pushed in one read of the socket, recorded together: one insert per block, not per deposit.
  let pushed: PushedLog[] = [];
  let factBlocksLoaded = false;
  let last: Head | undefined;
  // Set when heads may have been missed (start, reconnection, a failed head): the next head checks for a reorg.
  let checkNext = true;
  let stopped = false;
  let connection:
    | {
        client: PublicClient<WebSocketTransport>;
        unsubscribe: Array<() => Promise<unknown>>;
        /** Deposits come by the `logs` subscription; false: asked for on each head. */
        logsPushed: boolean;
      }
    | undefined;
  let attempt = 0;
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;
  // Heads are handled one after another, in the order announced.
  let queue: Promise<void> = Promise.resolve();

  const fail = (error: unknown, message: string) => {
    // A node's JSON-RPC error comes as a plain object.
    health.lastError = (error as { message?: string } | undefined)?.message ?? String(error);
    logger.warn({ err: error }, message);
  };

  async function dropOrphans(head: Head, client: PublicClient<WebSocketTransport>): Promise<void> {
    for (const [hash, number] of factBlocks) if (number < head.number - reorgDepth) factBlocks.delete(hash);
    const orphaned: string[] = [];
    for (const number of new Set(factBlocks.values())) {
      const canonical =
        number > head.number
          ? null
          : await client.getBlock({ blockNumber: number }).catch((error: unknown) => {
              if (error instanceof BlockNotFoundError) return null;
              throw error;
            });
      for (const [hash, at] of factBlocks)
        if (at === number && hash !== canonical?.hash.toLowerCase()) orphaned.push(hash);
    }
    await forgetBlocks(orphaned, { head: Number(head.number) });
  }

  async function forgetBlocks(orphaned: string[], context: Record<string, unknown>): Promise<void> {
    if (orphaned.length === 0) return;
    const deleted = await deleteDepositFactsOfBlocks(pool, chain.id, HEAD_WATCHER_SOURCE, orphaned);
    for (const hash of orphaned) factBlocks.delete(hash);
    health.orphaned += deleted;
    if (deleted > 0)
      logger.warn({ blocks: orphaned, deleted, ...context }, "reorg: deleted the deposits of orphaned blocks");
  }

  /** Records the deposits of these transactions of one block, read from their receipts. */
  async function recordDeposits(
    block: { hash: string; number: bigint; timestamp: bigint },
    txHashes: ReadonlySet<Hex>,
  ): Promise<void> {
    if (txHashes.size === 0) return;
    const receipts = await Promise.all([...txHashes].map((hash) => receiptsClient.getTransactionReceipt({ hash })));
    const blockHash = block.hash.toLowerCase();
    // A transaction mined again elsewhere since is left to Ponder, which follows the chain it ends up in.
    const facts = receipts
      .filter((receipt) => receipt.blockHash.toLowerCase() === blockHash)
      .flatMap((receipt) => depositFactsOfReceipt(chain.id, chain.depository, receipt, block.timestamp));
    if (facts.length === 0) return;
    factBlocks.set(blockHash, block.number);
    health.recorded += await insertDepositFacts(pool, facts, HEAD_WATCHER_SOURCE);
  }

  /** The logs pushed since the last flush: removed ones forget their blocks, the others are recorded by block. */
  async function onPushedLogs(logs: PushedLog[], client: PublicClient<WebSocketTransport>): Promise<void> {
    if (connection?.client !== client) return;
    try {
      await forgetBlocks([...new Set(logs.filter((log) => log.removed).map((log) => log.blockHash.toLowerCase()))], {
        source: "removed logs",
      });
      const blocks = new Map<string, { number: bigint; timestamp?: bigint; txHashes: Set<Hex> }>();
      for (const log of logs) {
        if (log.removed) continue;
        const hash = log.blockHash.toLowerCase();
        const block = blocks.get(hash) ?? { number: hexToBigInt(log.blockNumber), txHashes: new Set<Hex>() };
        if (log.blockTimestamp) block.timestamp = hexToBigInt(log.blockTimestamp);
        block.txHashes.add(log.transactionHash);
        blocks.set(hash, block);
      }
      await Promise.all(
        [...blocks].map(async ([hash, block]) => {
          const timestamp =
            block.timestamp ??
            headTimes.get(hash)?.timestamp ??
            (await client.getBlock({ blockHash: hash as Hex, includeTransactions: false })).timestamp;
          await recordDeposits({ hash, number: block.number, timestamp }, block.txHashes);
        }),
      );
    } catch (error) {
      // Those deposits are left to Ponder; the next head looks for a reorg.
      checkNext = true;
      fail(error, "deposit watcher: pushed deposits not recorded");
    }
  }

  /** Asks for a head's deposits where the node does not push them. */
  async function fetchDeposits(head: Head, client: PublicClient<WebSocketTransport>): Promise<void> {
    const logs = await client.getLogs({ blockHash: head.hash, address: chain.depository as Hex, event: depositEvent });
    await recordDeposits(head, new Set(logs.map((log) => log.transactionHash)));
  }

  async function onHead(head: Head, client: PublicClient<WebSocketTransport>): Promise<void> {
    // A head announced on a socket since replaced: its successor's head comes on the new one.
    if (connection?.client !== client) return;
    try {
      if (!factBlocksLoaded) {
        // What an earlier run recorded may have been orphaned while nobody watched.
        const recorded = await depositFactBlocks(pool, chain.id, HEAD_WATCHER_SOURCE, head.number - reorgDepth);
        for (const block of recorded) factBlocks.set(block.hash, block.number);
        factBlocksLoaded = true;
      }
      for (const [hash, seen] of headTimes) if (seen.number < head.number - reorgDepth) headTimes.delete(hash);
      if (checkNext || head.parentHash.toLowerCase() !== last?.hash.toLowerCase()) await dropOrphans(head, client);
      checkNext = false;
      if (connection?.client === client && !connection.logsPushed) await fetchDeposits(head, client);
      last = head;
      health.head = Number(head.number);
    } catch (error) {
      // The head is left to Ponder.
      checkNext = true;
      fail(error, "deposit watcher: head not processed");
    }
  }

  /** Closes the current socket; `unsubscribe` first when it is still up. */
  async function disconnect({ unsubscribe }: { unsubscribe: boolean }): Promise<void> {
    const current = connection;
    connection = undefined;
    health.connected = false;
    health.deposits = null;
    if (!current) return;
    if (unsubscribe) for (const stop of current.unsubscribe) await stop().catch(() => undefined);
    await current.client.transport.getRpcClient().then(
      (socket) => socket.close(),
      () => undefined,
    );
  }

  function scheduleConnect(): void {
    if (stopped) return;
    failures += 1;
    retry = setTimeout(() => void connect(), backoffDelay(failures, reconnect));
  }

  async function connect(): Promise<void> {
    retry = undefined;
    if (stopped) return;
    attempt += 1;
    const client = createPublicClient({
      // Reconnection is ours (a fresh socket each time): viem's gives up after a few attempts and then stays closed.
      transport: webSocket(chain.wsUrl, {
        key: `deposit-watcher-${chain.id}-${attempt}`,
        reconnect: false,
        retryCount: 0,
        timeout: chain.rpcTimeoutMs ?? 10_000,
      }),
    });
    const current: NonNullable<typeof connection> = { client, unsubscribe: [], logsPushed: false };
    connection = current;
    let lost = false;
    const onLost = (error: unknown) => {
      if (lost || connection !== current) return;
      lost = true;
      if (!options.stopping?.()) fail(error, "deposit watcher: websocket lost; reconnecting");
      checkNext = true;
      void disconnect({ unsubscribe: false }).finally(scheduleConnect);
    };
    try {
      // Logs first: a head handled before it is known whether they come pushed would lose its deposits to Ponder.
      await client.transport
        .subscribe({
          params: ["logs", { address: chain.depository as Hex, topics: depositTopics }],
          onData: (data) => {
            const log = (data as { result?: PushedLog }).result;
            if (!log?.blockHash || !log.blockNumber || !log.transactionHash) return;
            if (pushed.length === 0)
              setImmediate(() => {
                const logs = pushed;
                pushed = [];
                queue = queue.then(() => onPushedLogs(logs, client));
              });
            pushed.push(log);
          },
          // Before the subscription stands, an error is its refusal: answered below.
          onError: (error) => current.logsPushed && onLost(error),
        })
        .then(
          (subscription) => {
            current.unsubscribe.push(subscription.unsubscribe);
            current.logsPushed = true;
          },
          (error: unknown) => {
            // Only a refusal falls back; a socket that failed fails the newHeads subscription next.
            logger.info({ err: error }, "deposit watcher: no log subscription; asking for each head's logs");
          },
        );
      const subscription = await client.transport.subscribe({
        params: ["newHeads"],
        onData: (data) => {
          const raw = (data as { result?: Record<string, Hex> }).result;
          if (!raw?.hash || !raw.number || !raw.parentHash || !raw.timestamp) return;
          const head: Head = {
            number: hexToBigInt(raw.number),
            hash: raw.hash,
            parentHash: raw.parentHash,
            timestamp: hexToBigInt(raw.timestamp),
          };
          headTimes.set(head.hash.toLowerCase(), head);
          queue = queue.then(() => onHead(head, client));
        },
        onError: onLost,
      });
      current.unsubscribe.push(subscription.unsubscribe);
      if (connection !== current) return;
      health.connected = true;
      health.deposits = current.logsPushed ? "log subscription" : "eth_getLogs per head";
      failures = 0;
      logger.info({ attempt, deposits: health.deposits }, "deposit watcher subscribed to new heads");
    } catch (error) {
      if (connection !== current) return;
      fail(error, "deposit watcher: cannot subscribe; retrying");
      await disconnect({ unsubscribe: false });
      scheduleConnect();
    }
  }

  void connect();
  return {
    health: () => ({ ...health }),
    async stop() {
      stopped = true;
      clearTimeout(retry);
      await disconnect({ unsubscribe: true });
      await queue;
    },
  };
}
