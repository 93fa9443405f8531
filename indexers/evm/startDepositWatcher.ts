/**
 * The head watcher of one EVM chain: records the Depository's deposits of each new block as soon as the node announces
 * it, before Ponder has indexed it, so a deposit reaches `pending` without waiting for Ponder's row (Ponder commits a
 * block some 30–80 ms after the node announces it). Ponder stays the complete record: it writes the same deposit under
 * the same key, and covers every block this watcher missed (it runs only while its websocket is up, and never
 * backfills). The facts go to deposit_facts (source HEAD_WATCHER_SOURCE), whose insert trigger wakes the reconcile.
 *
 * Reorgs: when a head does not follow the previous one, the blocks this watcher recorded facts in are checked against
 * the node, and the facts of those no longer in the chain are deleted, as Ponder deletes its rows. A deposit applied
 * before that is still checked against the node before its fill (checkEvmDeposit).
 */
import type pg from "pg";
import type { Logger } from "pino";
import {
  BlockNotFoundError,
  type Hex,
  type PublicClient,
  type WebSocketTransport,
  createPublicClient,
  getAbiItem,
  hexToBigInt,
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
};

export type DepositWatcherHealth = {
  chainId: number;
  connected: boolean;
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

const depositEvent = getAbiItem({ abi: depositoryAbi, name: "Deposit" });

export function startDepositWatcher(options: StartDepositWatcherOptions): DepositWatcher {
  const { pool, chain } = options;
  const logger = options.logger.child({ chainId: chain.id, component: "deposit-watcher" });
  const reorgDepth = BigInt(options.reorgDepth ?? 64);
  const reconnect = options.reconnect ?? { baseMs: 500, maxMs: 30_000 };
  const health: DepositWatcherHealth = {
    chainId: chain.id,
    connected: false,
    head: null,
    recorded: 0,
    orphaned: 0,
    lastError: null,
  };

  /** Blocks this watcher has facts in (hash → number), within `reorgDepth` of the head. */
  const factBlocks = new Map<string, bigint>();
  let factBlocksLoaded = false;
  let last: Head | undefined;
  // Set when heads may have been missed (start, reconnection, a failed head): the next head checks for a reorg.
  let checkNext = true;
  let stopped = false;
  let connection: { client: PublicClient<WebSocketTransport>; unsubscribe?: () => Promise<unknown> } | undefined;
  let attempt = 0;
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;
  // Heads are handled one after another, in the order announced.
  let queue: Promise<void> = Promise.resolve();

  const fail = (error: unknown, message: string) => {
    health.lastError = error instanceof Error ? error.message : String(error);
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
    if (orphaned.length === 0) return;
    const deleted = await deleteDepositFactsOfBlocks(pool, chain.id, HEAD_WATCHER_SOURCE, orphaned);
    for (const hash of orphaned) factBlocks.delete(hash);
    health.orphaned += deleted;
    logger.warn(
      { blocks: orphaned, deleted, head: Number(head.number) },
      "reorg: deleted the deposits of orphaned blocks",
    );
  }

  async function recordDeposits(head: Head, client: PublicClient<WebSocketTransport>): Promise<void> {
    const logs = await client.getLogs({ blockHash: head.hash, address: chain.depository as Hex, event: depositEvent });
    if (logs.length === 0) return;
    const receipts = await Promise.all(
      [...new Set(logs.map((log) => log.transactionHash))].map((hash) => client.getTransactionReceipt({ hash })),
    );
    const blockHash = head.hash.toLowerCase();
    // A transaction mined again elsewhere since is left to Ponder, which follows the chain it ends up in.
    const facts = receipts
      .filter((receipt) => receipt.blockHash.toLowerCase() === blockHash)
      .flatMap((receipt) => depositFactsOfReceipt(chain.id, chain.depository, receipt, head.timestamp));
    if (facts.length === 0) return;
    factBlocks.set(blockHash, head.number);
    health.recorded += await insertDepositFacts(pool, facts, HEAD_WATCHER_SOURCE);
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
      if (checkNext || head.parentHash.toLowerCase() !== last?.hash.toLowerCase()) await dropOrphans(head, client);
      checkNext = false;
      await recordDeposits(head, client);
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
    if (!current) return;
    if (unsubscribe) await current.unsubscribe?.().catch(() => undefined);
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
    const current: NonNullable<typeof connection> = { client };
    connection = current;
    let lost = false;
    const onLost = (error: unknown) => {
      if (lost || connection !== current) return;
      lost = true;
      fail(error, "deposit watcher: websocket lost; reconnecting");
      checkNext = true;
      void disconnect({ unsubscribe: false }).finally(scheduleConnect);
    };
    try {
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
          queue = queue.then(() => onHead(head, client));
        },
        onError: onLost,
      });
      current.unsubscribe = subscription.unsubscribe;
      if (connection !== current) return;
      health.connected = true;
      failures = 0;
      logger.info({ attempt }, "deposit watcher subscribed to new heads");
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
