import { randomBytes } from "node:crypto";
import type pg from "pg";
import { insertTestRequest } from "./insertTestRequest.js";

export type StatsRequest = {
  createdAt: string;
  origin: number;
  destination: number;
  symbol: string;
  status: string;
  amountUsd: string;
  relayerFeeUsd?: string;
  appFeeUsd?: string;
  failReason?: string;
  /** Seconds from the deposit's block timestamp to the fill's: a deposit and a fill are inserted (their triggers set fill_seconds). */
  fillSeconds?: number;
  apiKeyId?: string;
};

const hash = () => `0x${randomBytes(32).toString("hex")}`;

/** A request with the stored quote, status, creation time and chain facts requestStats aggregates. */
export async function insertStatsRequest(pool: pg.Pool, spec: StatsRequest): Promise<string> {
  const quote = {
    details: { currencyIn: { currency: { chainId: spec.origin, symbol: spec.symbol }, amountUsd: spec.amountUsd } },
    fees: {
      relayer: { amountUsd: spec.relayerFeeUsd ?? "0" },
      app: { amountUsd: spec.appFeeUsd ?? "0" },
      gas: { amountUsd: "123" },
    },
  };
  const request = await insertTestRequest(pool, {
    originChainId: spec.origin,
    destinationChainId: spec.destination,
    quote,
    apiKeyId: spec.apiKeyId,
  });
  await pool.query("UPDATE crossfill.requests SET status = $2, fail_reason = $3, created_at = $4 WHERE id = $1", [
    request.id,
    spec.status,
    spec.failReason ?? null,
    spec.createdAt,
  ]);
  if (spec.fillSeconds !== undefined) {
    await pool.query(
      `INSERT INTO crossfill.request_deposits (chain_id, tx_hash, log_index, request_id, depositor, currency, amount, block_number, timestamp)
       VALUES ($1, $2, 0, $3, $4, $4, 1000, 7, 1700000000)`,
      [spec.origin, hash(), request.id, request.user],
    );
    await pool.query(
      `INSERT INTO crossfill.request_fills (chain_id, tx_hash, log_index, request_id, amount, block_number, timestamp)
       VALUES ($1, $2, 0, $3, 990, 9, $4)`,
      [spec.destination, hash(), request.id, 1700000000 + spec.fillSeconds],
    );
  }
  return request.id;
}
