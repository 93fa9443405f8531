// Ponder requires an API entry that default-exports a Hono app. Crossfill serves nothing from the indexer:
// clients read the views schema; Ponder itself adds /health, /ready, /status and /metrics.
import { Hono } from "hono";

const app = new Hono();

export default app;
