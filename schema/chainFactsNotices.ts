import type pg from "pg";

/** The Postgres channel the app's own fact tables announce new facts on (migration 0110's triggers). */
export const CHAIN_FACTS_CHANNEL = "crossfill_chain_facts";

/**
 * Ponder's live-query channel of a views schema: when a realtime block's transaction commits, Ponder sends on it the
 * JSON array of the tables that block changed (`[]` for none). Its own signal, so the handlers send none: a raw SQL
 * statement in a handler costs Ponder a SQL parse, a flush of its cache and a savepoint, some 30 ms per event.
 */
export function ponderLiveQueryChannel(viewsSchema: string): string {
  return `${viewsSchema}_live_query`;
}

const quoted = (channel: string) => `"${channel.replaceAll('"', '""')}"`;

export type ChainFactsListener = { close(): Promise<void> };

/**
 * Calls `onFacts` whenever an indexer commits new chain facts: the app's fact tables, and with `ponderViewsSchema` the
 * blocks Ponder indexes that change a table. Holds one connection of `pool` for LISTEN; a lost connection is replaced
 * after `retryMs` (notices sent meanwhile are lost: the reconcile tick is the safety net).
 */
export function listenForChainFacts(
  pool: pg.Pool,
  onFacts: () => void,
  options: { retryMs?: number; onError?: (error: unknown) => void; ponderViewsSchema?: string } = {},
): ChainFactsListener {
  const retryMs = options.retryMs ?? 1_000;
  const ponderChannel = options.ponderViewsSchema && ponderLiveQueryChannel(options.ponderViewsSchema);
  const channels = [CHAIN_FACTS_CHANNEL, ...(ponderChannel ? [ponderChannel] : [])];
  let client: pg.PoolClient | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    let connected: pg.PoolClient | undefined;
    try {
      connected = await pool.connect();
      if (closed) return connected.release();
      client = connected;
      const held = connected;
      connected.on("notification", (message) => {
        if (message.channel === CHAIN_FACTS_CHANNEL) onFacts();
        // an empty block changes no table
        else if (message.channel === ponderChannel && message.payload !== "[]") onFacts();
      });
      connected.on("error", (error) => {
        options.onError?.(error);
        if (client !== held) return;
        client = undefined;
        held.release(error);
        if (!closed) retry = setTimeout(connect, retryMs);
      });
      for (const channel of channels) await connected.query(`LISTEN ${quoted(channel)}`);
      // Facts committed while nobody listened are not announced: look once.
      onFacts();
    } catch (error) {
      options.onError?.(error);
      if (connected && client !== connected) connected.release(error as Error);
      if (!closed) retry = setTimeout(connect, retryMs);
    }
  };
  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      const held = client;
      client = undefined;
      if (held) {
        await held.query("UNLISTEN *").catch(() => undefined);
        held.release();
      }
    },
  };
}
