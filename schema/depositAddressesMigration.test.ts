import { describe, expect, it } from "vitest";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { depositAddressOwners } from "./depositAddresses.js";
import { migrate } from "./migrate.js";

// Migration 0240: deposit addresses keyed by (chain_id, address), the family's key beside it.
describe("migration 0240_deposit_addresses_by_address", () => {
  const database = useMigratedDatabase({ before: 240 });

  it("keeps Bitcoin's rows, each derivation index as its key, and their requests' owners", async () => {
    const { pool } = database;
    const request = await insertTestRequest(pool);
    // The old shape: keyed by (chain_id, derivation_index).
    await pool.query(
      `INSERT INTO crossfill.deposit_addresses (chain_id, derivation_index, address)
       VALUES (8253038, 0, 'bcrt1qzero'), (8253038, 7, 'bcrt1qseven'), (8253039, 7, 'bcrt1qother')`,
    );
    await pool.query(
      `INSERT INTO crossfill.request_deposit_addresses (request_id, chain_id, address, type)
       VALUES ($1, 8253038, 'bcrt1qseven', 'open')`,
      [request.id],
    );

    expect(await migrate(pool)).toContain("240_deposit_addresses_by_address");

    const { rows } = await pool.query(
      "SELECT chain_id::int, address, address_key FROM crossfill.deposit_addresses ORDER BY chain_id, address",
    );
    expect(rows).toEqual([
      { chain_id: 8253038, address: "bcrt1qseven", address_key: "7" },
      { chain_id: 8253038, address: "bcrt1qzero", address_key: "0" },
      { chain_id: 8253039, address: "bcrt1qother", address_key: "7" },
    ]);
    expect(await depositAddressOwners(pool, 8253038, ["bcrt1qseven", "bcrt1qzero"])).toEqual(
      new Map([["bcrt1qseven", { key: "7", orderId: request.orderId, requestId: request.id }]]),
    );
    // One row per address of a chain, one address per key of a chain; a request names a known address only.
    await expect(
      pool.query(
        "INSERT INTO crossfill.deposit_addresses (chain_id, address, address_key) VALUES (8253038, 'bcrt1qzero', '9')",
      ),
    ).rejects.toThrow(/duplicate key/);
    await expect(
      pool.query(
        "INSERT INTO crossfill.deposit_addresses (chain_id, address, address_key) VALUES (8253038, 'bcrt1qnew', '7')",
      ),
    ).rejects.toThrow(/duplicate key/);
    const other = await insertTestRequest(pool);
    await expect(
      pool.query(
        `INSERT INTO crossfill.request_deposit_addresses (request_id, chain_id, address, type)
         VALUES ($1, 8253038, 'bcrt1qunknown', 'open')`,
        [other.id],
      ),
    ).rejects.toThrow(/foreign key/);
  });
});
