import pg from "pg";

/**
 * The compression of `crossfill.requests.quote` ('l' lz4, '' the server's default) and what migration 0180 should
 * have made it on this server: lz4 where the server was built with it.
 */
export async function quoteCompression(databaseUrl: string): Promise<{ actual: string; expected: string }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ actual: string; lz4: boolean }>(
      `SELECT (SELECT attcompression FROM pg_attribute
                WHERE attrelid = 'crossfill.requests'::regclass AND attname = 'quote') AS actual,
              (SELECT 'lz4' = ANY (enumvals) FROM pg_settings WHERE name = 'default_toast_compression') AS lz4`,
    );
    return { actual: rows[0].actual, expected: rows[0].lz4 ? "l" : "" };
  } finally {
    await client.end();
  }
}
