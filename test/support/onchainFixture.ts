import { zeroAddress } from "viem";
import { onchainStandInSql } from "../../schema/onchainStandInSql.js";
import type { Queryable } from "../../schema/queryable.js";

// Stand-ins for Ponder's published views, filled by the test.
export const ONCHAIN_FIXTURE = onchainStandInSql("onchain_fixture");

/** Ponder's row of a fill of `requestId` by `txHash` on chain 31339 (log 0, block 11), in `onchain_fixture`. */
export function insertIndexedFill(db: Queryable, requestId: string, txHash: string, logIndex = 0) {
  return db.query(
    `INSERT INTO onchain_fixture.fill VALUES ($1, 31339, $2, '0xsolver', $3, '0xrecipient', 990, $4, $5, 11, '0xblock', 1700000000, '0xsolver', 1)`,
    [`31339:${txHash}:${logIndex}`, requestId, zeroAddress, txHash, logIndex],
  );
}
