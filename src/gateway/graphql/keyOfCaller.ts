import type { ApiKeyRecord } from "../../../schema/apiKeys.js";
import { findApiKeys } from "../../../schema/apiKeys.js";
import { ForbiddenError, NotFoundError } from "../../domain/errors.js";
import { type GraphqlContext, requireApiKey } from "./graphqlContext.js";

/**
 * The key a dashboard operation is about: the caller's own when `id` is absent or its own id, else another key of
 * the caller's integrator. Any key may read its integrator's keys; changing another key (`change: true`) needs a
 * key the operator marked for management (FORBIDDEN otherwise). A key of another integrator is NOT_FOUND, exactly
 * as an unknown id is: no key learns that another integrator's key exists.
 */
export async function keyOfCaller(
  context: GraphqlContext,
  id: string | null | undefined,
  options: { change: boolean },
): Promise<ApiKeyRecord> {
  const caller = await requireApiKey(context);
  if (id === null || id === undefined || id === caller.id) return caller;
  const [key] = id.startsWith("key_") ? await findApiKeys(context.db, [id], []) : [];
  if (!key || key.integrator !== caller.integrator)
    throw new NotFoundError("NOT_FOUND", `no API key ${id} of your integrator`);
  if (options.change && !caller.managesKeys)
    throw new ForbiddenError("this key may change only itself: ask the operator for a key marked for management");
  const { keyHash: _, ...record } = key;
  return record;
}
