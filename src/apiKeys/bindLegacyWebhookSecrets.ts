import { bindWebhookSecret, listUnboundWebhookSecrets } from "../../schema/apiKeys.js";
import type { Queryable } from "../../schema/queryable.js";
import { openSecretOrUndefined, sealSecret } from "./secretBox.js";

/**
 * Re-seals the webhook secrets sealed before secrets were bound to their key id, each now bound to its own key (the
 * worker runs it at start, holding the server key). A value that does not open under this server key is left as it
 * is and counted: its webhooks fail until the key is replaced.
 */
export async function bindLegacyWebhookSecrets(
  db: Queryable,
  serverKey: Buffer,
): Promise<{ bound: number; unreadable: string[] }> {
  let bound = 0;
  const unreadable: string[] = [];
  for (const { id, cipher } of await listUnboundWebhookSecrets(db)) {
    const secret = openSecretOrUndefined(serverKey, cipher, undefined);
    if (secret === undefined) unreadable.push(id);
    else if (await bindWebhookSecret(db, id, cipher, sealSecret(serverKey, secret, id))) bound += 1;
  }
  return { bound, unreadable };
}
