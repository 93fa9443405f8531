import {
  type ApiKeyRecord,
  listIntegratorApiKeys,
  renameApiKey,
  revokeApiKey as revokeKey,
} from "../../../../schema/apiKeys.js";
import { getWebhookEndpoint } from "../../../../schema/webhookEndpoints.js";
import { createApiKey as createKey } from "../../../apiKeys/createApiKey.js";
import { ForbiddenError, InvalidInputError, NotFoundError } from "../../../domain/errors.js";
import { builder } from "../builder.js";
import { type GraphqlContext, requireApiKey } from "../graphqlContext.js";
import { keyOfCaller } from "../keyOfCaller.js";
import { WebhookEndpointRef } from "./webhook.js";

const NAME_MAX = 64;

/** A key name as the dashboard and the CLI take it: trimmed, 1-64 characters, no control characters. */
function keyName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > NAME_MAX || /\p{Cc}/u.test(trimmed))
    throw new InvalidInputError("INVALID_INPUT", `name: 1 to ${NAME_MAX} characters, no control characters`);
  return trimmed;
}

/** The caller, when it may create, rename and revoke its integrator's keys. */
async function managingCaller(context: GraphqlContext): Promise<ApiKeyRecord> {
  const caller = await requireApiKey(context);
  if (!caller.managesKeys)
    throw new ForbiddenError("this key may not manage keys: ask the operator for a key marked for management");
  return caller;
}

const ApiKeyRef = builder.objectRef<ApiKeyRecord & { callerId: string }>("ApiKey").implement({
  description: "An API key of the caller's integrator (the key itself is never read back: createApiKey shows it once).",
  fields: (t) => ({
    id: t.exposeID("id", { description: "The key's public identifier, `key_…`." }),
    name: t.exposeString("name", { nullable: true }),
    integrator: t.exposeString("integrator"),
    elevated: t.exposeBoolean("elevated", { description: "Higher rate limits (set by the operator)." }),
    managesKeys: t.exposeBoolean("managesKeys", {
      description: "May create, rename and revoke its integrator's keys and set their webhooks (set by the operator).",
    }),
    oraclePricingBps: t.string({
      nullable: true,
      description:
        "Fixed-bps oracle pricing: this key's quotes are the oracle rate less these bps (set by the operator only); null: normal pricing.",
      resolve: (key) => key.oraclePricingBps?.toString() ?? null,
    }),
    current: t.boolean({
      description: "Whether this is the key the caller presented.",
      resolve: (key) => key.id === key.callerId,
    }),
    createdAt: t.field({ type: "DateTime", resolve: (key) => key.createdAt }),
    revokedAt: t.field({ type: "DateTime", nullable: true, resolve: (key) => key.revokedAt }),
    webhook: t.field({
      type: WebhookEndpointRef,
      nullable: true,
      resolve: async (key, _, context) => (await getWebhookEndpoint(context.db, key.id)) ?? null,
    }),
  }),
});

const CreatedApiKeyRef = builder
  .objectRef<{ key: string; apiKey: ApiKeyRecord & { callerId: string } }>("CreatedApiKey")
  .implement({
    fields: (t) => ({
      key: t.exposeString("key", { description: "The key itself: shown this once, only its hash is stored." }),
      apiKey: t.field({ type: ApiKeyRef, resolve: (created) => created.apiKey }),
    }),
  });

builder.queryFields((t) => ({
  viewer: t.field({
    type: ApiKeyRef,
    description: "The key the caller presented (x-api-key): the dashboard's sign-in.",
    resolve: async (_, __, context) => {
      const caller = await requireApiKey(context);
      return { ...caller, callerId: caller.id };
    },
  }),
  apiKeys: t.field({
    type: [ApiKeyRef],
    description: "Every key of the caller's integrator, revoked ones included, oldest first.",
    resolve: async (_, __, context) => {
      const caller = await requireApiKey(context);
      return (await listIntegratorApiKeys(context.db, caller.integrator)).map((key) => ({
        ...key,
        callerId: caller.id,
      }));
    },
  }),
}));

builder.mutationFields((t) => ({
  createApiKey: t.field({
    type: CreatedApiKeyRef,
    description:
      "A new standard key of the caller's integrator (needs a key marked for management); the key is in the answer only.",
    args: { name: t.arg.string({ required: true }) },
    resolve: async (_, args, context) => {
      const caller = await managingCaller(context);
      const created = await createKey(context.db, context.serverKey, {
        name: keyName(args.name),
        integrator: caller.integrator,
      });
      const { key, ...record } = created;
      return { key, apiKey: { ...record, callerId: caller.id } };
    },
  }),
  renameApiKey: t.field({
    type: ApiKeyRef,
    description: "Renames a key of the caller's integrator (needs a key marked for management).",
    args: { id: t.arg.id({ required: true }), name: t.arg.string({ required: true }) },
    resolve: async (_, args, context) => {
      const caller = await managingCaller(context);
      const renamed = await renameApiKey(context.db, {
        id: String(args.id),
        integrator: caller.integrator,
        name: keyName(args.name),
      });
      if (!renamed) throw new NotFoundError("NOT_FOUND", `no API key ${args.id} of your integrator`);
      return { ...renamed, callerId: caller.id };
    },
  }),
  revokeApiKey: t.field({
    type: ApiKeyRef,
    description:
      "Revokes another key of the caller's integrator at once (needs a key marked for management; a key cannot revoke itself).",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_, args, context) => {
      const caller = await managingCaller(context);
      const target = await keyOfCaller(context, String(args.id), { change: true });
      if (target.id === caller.id)
        throw new InvalidInputError(
          "INVALID_INPUT",
          "a key cannot revoke itself: revoke it from another managing key or with crossfill keys revoke",
        );
      if (!(await revokeKey(context.db, target.id, caller.integrator)))
        throw new InvalidInputError("INVALID_INPUT", `API key ${target.id} is already revoked`);
      const [revoked] = (await listIntegratorApiKeys(context.db, caller.integrator)).filter(
        (key) => key.id === target.id,
      );
      return { ...revoked, callerId: caller.id };
    },
  }),
}));
