import type pg from "pg";

/** What a query function runs on: the pool, or a client inside a transaction (withTransaction). */
export type Queryable = Pick<pg.Pool, "query"> | pg.PoolClient;
