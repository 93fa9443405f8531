import {
  type WebhookAttempt,
  type WebhookAttemptOutcome,
  type WebhookDelivery,
  type WebhookDeliveryState,
  listWebhookDeliveries,
  replayWebhookDelivery,
  webhookAttemptsOf,
} from "../../../../schema/webhookDeliveries.js";
import { type WebhookEndpoint, getWebhookEndpoint } from "../../../../schema/webhookEndpoints.js";
import { InvalidInputError, NotFoundError } from "../../../domain/errors.js";
import { sendTestWebhook } from "../../../webhooks/sendTestWebhook.js";
import { setWebhook } from "../../../webhooks/setWebhook.js";
import { builder } from "../builder.js";
import { keyOfCaller } from "../keyOfCaller.js";
import { PageInfoRef } from "./requestConnection.js";

const PAGE = { default: 20, max: 100 } as const;

const WebhookHeaderInput = builder.inputType("WebhookHeaderInput", {
  fields: (t) => ({ name: t.string({ required: true }), value: t.string({ required: true }) }),
});

export const WebhookEndpointRef = builder.objectRef<WebhookEndpoint>("WebhookEndpoint").implement({
  description: "An API key's one webhook endpoint (spec: Authentication 6).",
  fields: (t) => ({
    apiKeyId: t.exposeID("apiKeyId"),
    url: t.exposeString("url"),
    enabled: t.exposeBoolean("enabled"),
    headerNames: t.stringList({
      description: "Names of the custom headers sent with every webhook (values are not read back).",
      resolve: (endpoint) => Object.keys(endpoint.headers).sort(),
    }),
    disabledReason: t.exposeString("disabledReason", { nullable: true }),
    disabledAt: t.field({ type: "DateTime", nullable: true, resolve: (endpoint) => endpoint.disabledAt }),
    updatedAt: t.field({ type: "DateTime", resolve: (endpoint) => endpoint.updatedAt }),
  }),
});

/** GraphQL enum values named in upper case for stored lower-case strings. */
const upperCaseValues = <T extends string>(values: readonly T[]) =>
  Object.fromEntries(values.map((value) => [value.toUpperCase(), { value }])) as Record<Uppercase<T>, { value: T }>;

const STATES = ["pending", "delivered", "failed", "disabled"] as const satisfies readonly WebhookDeliveryState[];
const WebhookDeliveryStatus = builder.enumType("WebhookDeliveryStatus", {
  values: upperCaseValues(STATES),
});

const OUTCOMES = ["delivered", "retrying", "failed", "disabled"] as const satisfies readonly WebhookAttemptOutcome[];
const WebhookAttemptOutcomeEnum = builder.enumType("WebhookAttemptOutcome", {
  description:
    "DELIVERED: 2xx. RETRYING: failed, a retry is scheduled. FAILED: the last retry failed. DISABLED: 410 Gone.",
  values: upperCaseValues(OUTCOMES),
});

const WebhookAttemptRef = builder.objectRef<WebhookAttempt>("WebhookAttempt").implement({
  description: "One POST of a delivery.",
  fields: (t) => ({
    generation: t.exposeInt("generation", {
      description: "0 for the original attempts, n for those of the n-th replay.",
    }),
    attempt: t.exposeInt("attempt", {
      description: "1 for the first attempt of its generation, 2 for the first retry, …",
    }),
    outcome: t.field({ type: WebhookAttemptOutcomeEnum, resolve: (attempt) => attempt.outcome }),
    statusCode: t.exposeInt("statusCode", { nullable: true }),
    error: t.exposeString("error", { nullable: true }),
    latencyMs: t.exposeInt("latencyMs", { nullable: true }),
    attemptedAt: t.field({ type: "DateTime", resolve: (attempt) => attempt.attemptedAt }),
  }),
});

const WebhookDeliveryRef = builder.objectRef<WebhookDelivery>("WebhookDelivery").implement({
  description: "One status event owed to the endpoint, with the outcome of its last attempt.",
  fields: (t) => ({
    id: t.exposeID("id"),
    apiKeyId: t.exposeID("apiKeyId"),
    test: t.boolean({
      description: "A test event (sendTestWebhook), not a request's status change.",
      resolve: (delivery) => delivery.statusEventId === null,
    }),
    eventId: t.exposeString("eventId", {
      description: "Sent as X-Crossfill-Event-Id: the same on every attempt and replay.",
    }),
    requestId: t.exposeString("requestId"),
    status: t.field({ type: WebhookDeliveryStatus, resolve: (delivery) => delivery.state }),
    attempts: t.exposeInt("attempts"),
    lastStatusCode: t.exposeInt("lastStatusCode", { nullable: true }),
    lastError: t.exposeString("lastError", { nullable: true }),
    latencyMs: t.exposeInt("lastLatencyMs", { nullable: true, description: "Duration of the last attempt." }),
    nextAttemptAt: t.field({
      type: "DateTime",
      nullable: true,
      resolve: (delivery) => (delivery.state === "pending" ? delivery.nextAttemptAt : null),
    }),
    createdAt: t.field({ type: "DateTime", resolve: (delivery) => delivery.createdAt }),
    lastAttemptAt: t.field({ type: "DateTime", nullable: true, resolve: (delivery) => delivery.lastAttemptAt }),
    deliveredAt: t.field({ type: "DateTime", nullable: true, resolve: (delivery) => delivery.deliveredAt }),
    body: t.field({
      type: "JSON",
      description: "The request.status.updated body posted.",
      resolve: (delivery) => JSON.parse(delivery.body),
    }),
    attemptLog: t.loadableList({
      type: WebhookAttemptRef,
      description: "Every attempt, oldest first (across replays).",
      load: (ids: string[], context) => webhookAttemptsOf(context.db, ids),
      resolve: (delivery) => delivery.id,
    }),
  }),
});

type Edge = { cursor: string; node: WebhookDelivery };
const WebhookDeliveryEdgeRef = builder.objectRef<Edge>("WebhookDeliveryEdge").implement({
  fields: (t) => ({
    cursor: t.exposeString("cursor"),
    node: t.field({ type: WebhookDeliveryRef, resolve: (edge) => edge.node }),
  }),
});
const WebhookDeliveryConnectionRef = builder
  .objectRef<{ edges: Edge[]; hasNextPage: boolean }>("WebhookDeliveryConnection")
  .implement({
    description: "The delivery log, newest first; pass pageInfo.endCursor as `after` for the next page.",
    fields: (t) => ({
      edges: t.field({ type: [WebhookDeliveryEdgeRef], resolve: (page) => page.edges }),
      pageInfo: t.field({
        type: PageInfoRef,
        resolve: (page) => ({ hasNextPage: page.hasNextPage, endCursor: page.edges.at(-1)?.cursor ?? null }),
      }),
    }),
  });

// The log is per key and ids are not secret: the cursor is the last id seen, only made opaque.
const encodeCursor = (id: string) => Buffer.from(`wd:${id}`).toString("base64url");
function decodeCursor(cursor: string): string {
  const match = /^wd:(\d{1,18})$/.exec(Buffer.from(cursor, "base64url").toString());
  if (!match) throw new InvalidInputError("INVALID_INPUT", "after: not a cursor of this connection");
  return match[1];
}

builder.queryFields((t) => ({
  webhook: t.field({
    type: WebhookEndpointRef,
    nullable: true,
    description:
      "The webhook endpoint of the caller's key (x-api-key), or of another key of its integrator, if one is set.",
    args: {
      apiKeyId: t.arg.id({
        description: "Another key of the caller's integrator (default: the caller's key).",
      }),
    },
    resolve: async (_, args, context) =>
      (await getWebhookEndpoint(
        context.db,
        (await keyOfCaller(context, args.apiKeyId?.toString(), { change: false })).id,
      )) ?? null,
  }),
  webhookDeliveries: t.field({
    type: WebhookDeliveryConnectionRef,
    description: "The caller's key's (or another key of its integrator's) webhook delivery log, newest first.",
    args: {
      apiKeyId: t.arg.id({
        description: "Another key of the caller's integrator (default: the caller's key).",
      }),
      first: t.arg.int({ description: `1-${PAGE.max}, default ${PAGE.default}.` }),
      after: t.arg.string(),
      status: t.arg({ type: WebhookDeliveryStatus }),
    },
    resolve: async (_, args, context) => {
      const key = await keyOfCaller(context, args.apiKeyId?.toString(), { change: false });
      const limit = args.first ?? PAGE.default;
      if (!Number.isInteger(limit) || limit < 1 || limit > PAGE.max)
        throw new InvalidInputError("INVALID_INPUT", `first: 1 to ${PAGE.max}`);
      const rows = await listWebhookDeliveries(context.db, {
        apiKeyId: key.id,
        beforeId: args.after ? decodeCursor(args.after) : undefined,
        state: args.status ?? undefined,
        limit: limit + 1,
      });
      return {
        edges: rows.slice(0, limit).map((node) => ({ cursor: encodeCursor(node.id), node })),
        hasNextPage: rows.length > limit,
      };
    },
  }),
}));

builder.mutationFields((t) => ({
  setWebhook: t.field({
    type: WebhookEndpointRef,
    description:
      "Sets the caller's key's webhook endpoint (one per key); another key's needs a key marked for management. Production accepts only https URLs to public addresses.",
    args: {
      apiKeyId: t.arg.id({
        description: "Another key of the caller's integrator (default: the caller's key).",
      }),
      url: t.arg.string({ required: true }),
      enabled: t.arg.boolean({ defaultValue: true }),
      headers: t.arg({
        type: [WebhookHeaderInput],
        description:
          "Custom headers sent with every webhook; replaces the previous set (omitted: the previous set is kept, as its values are never read back).",
      }),
    },
    resolve: async (_, args, context) => {
      const key = await keyOfCaller(context, args.apiKeyId?.toString(), { change: true });
      if (key.revokedAt) throw new InvalidInputError("INVALID_INPUT", `API key ${key.id} is revoked`);
      return setWebhook(context.db, context.webhookPolicy, {
        apiKeyId: key.id,
        url: args.url,
        enabled: args.enabled ?? true,
        headers: args.headers ?? (await getWebhookEndpoint(context.db, key.id))?.headers ?? [],
      });
    },
  }),
  replayWebhookDelivery: t.field({
    type: WebhookDeliveryRef,
    description:
      "Owes a delivery again from its first attempt (same body and event id, freshly signed); the worker picks it up within seconds.",
    args: {
      id: t.arg.id({ required: true }),
      apiKeyId: t.arg.id({
        description: "Another key of the caller's integrator (default: the caller's key).",
      }),
    },
    resolve: async (_, args, context) => {
      const key = await keyOfCaller(context, args.apiKeyId?.toString(), { change: true });
      const delivery = await replayWebhookDelivery(context.db, String(args.id), key.id);
      if (!delivery) throw new NotFoundError("NOT_FOUND", `no webhook delivery ${args.id} for this key`);
      return delivery;
    },
  }),
  sendTestWebhook: t.field({
    type: WebhookDeliveryRef,
    description:
      "Owes the key's enabled endpoint a `webhook.test` event, signed and retried like any delivery and logged with its attempts; the worker posts it within seconds.",
    args: {
      apiKeyId: t.arg.id({
        description: "Another key of the caller's integrator (default: the caller's key).",
      }),
    },
    resolve: async (_, args, context) => {
      const key = await keyOfCaller(context, args.apiKeyId?.toString(), { change: true });
      return sendTestWebhook(context.db, key.id);
    },
  }),
}));
