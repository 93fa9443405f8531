import type pg from "pg";
import type { ApiKeyRecord } from "../../../schema/apiKeys.js";
import { UnauthorizedError } from "../../domain/errors.js";
import type { ChainRegistry } from "../../chains/chainRegistry.js";
import type { StatusFanout } from "../../events/createStatusFanout.js";
import type { QuoteEngineDeps } from "../../quote/createQuote.js";
import type { WebhookPolicy } from "../../webhooks/validateWebhookUrl.js";

/** What every resolver sees: one context per HTTP request or graphql-ws subscription; loaders hang off it. */
export type GraphqlContext = {
  db: Pick<pg.Pool, "query">;
  registry: ChainRegistry;
  quoteEngine: QuoteEngineDeps;
  /** The gateway's keyed fan-out of status updates (subscriptions). */
  statusUpdates: StatusFanout;
  /** Signs the `requests` connection's cursors. */
  cursorSecret: Buffer;
  /** API_KEY_ENCRYPTION_KEY: seals the keys createApiKey makes (their webhooks are signed with them). */
  serverKey: Buffer;
  /** How often a subscription to the caller key's requests checks that the key is still active (default 30 s). */
  keyRecheckMs?: number;
  /** Which webhook URLs setWebhook accepts (production: public https only). */
  webhookPolicy: WebhookPolicy;
  /**
   * The loader scope of one status update, shared by every subscriber that receives it: the request behind an
   * update is read once per change, not once per subscriber. (What a Request shows depends on the caller only in
   * resolvers that check `apiKey()` against the loaded record, like `referrer`; loaded records never do.)
   */
  updateScope(eventId: string): object;
  /** The caller's API key (`x-api-key` header, or `x-api-key`/`apiKey` in graphql-ws connectionParams), looked up once per operation. */
  apiKey(): Promise<ApiKeyRecord | undefined>;
};

/** The caller's key, or UNAUTHORIZED: for the fields that, like GET /requests/v3, need an active key. */
export async function requireApiKey(context: GraphqlContext): Promise<ApiKeyRecord> {
  const key = await context.apiKey();
  if (!key)
    throw new UnauthorizedError(
      "an API key is required: the x-api-key header, or connectionParams.apiKey over graphql-ws",
    );
  return key;
}
