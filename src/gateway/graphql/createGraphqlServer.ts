import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { costLimitPlugin } from "@escape.tech/graphql-armor-cost-limit";
import { maxAliasesPlugin } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthPlugin } from "@escape.tech/graphql-armor-max-depth";
import { maxTokensPlugin } from "@escape.tech/graphql-armor-max-tokens";
import { type DocumentNode, type ExecutionArgs, GraphQLError, type ValidationContext } from "graphql";
import { useServer } from "graphql-ws/use/ws";
import { createYoga, maskError } from "graphql-yoga";
import type pg from "pg";
import type { Logger } from "pino";
import { WebSocketServer } from "ws";
import type { ApiKeyRecord } from "../../../schema/apiKeys.js";
import { isCrossfillError } from "../../domain/errors.js";
import { authenticate } from "../http/authenticate.js";
import { upgradeClientAddress } from "../http/clientAddress.js";
import { type RateLimitDeps, hitRateLimits } from "../http/hitRateLimits.js";
import { policyFor } from "../http/policyFor.js";
import type { RouteLimit } from "../http/routeLimits.js";
import { checkJsonValue } from "../http/checkJsonValue.js";
import { domainErrorOf } from "../http/domainErrorOf.js";
import { createRequestFailureLog } from "../http/requestFailureLog.js";
import { ownError } from "./ownError.js";
import { codeValidationErrors } from "./plugins/codeValidationErrors.js";
import { codeVariableErrors } from "./plugins/codeVariableErrors.js";
import { errorStatus } from "./plugins/errorStatus.js";
import { limitExpensiveFields } from "./plugins/limitExpensiveFields.js";
import { observeCreateQuote } from "./plugins/observeCreateQuote.js";
import type { Metrics } from "../../metrics/createMetrics.js";
import { refuseNulStrings } from "./plugins/refuseNulStrings.js";
import { checkGraphqlRequest } from "./checkGraphqlRequest.js";
import { domainGraphqlError } from "./domainGraphqlError.js";
import { sharedFieldLimits } from "./plugins/sharedFieldLimits.js";
import type { GraphqlContext } from "./graphqlContext.js";
import { schema } from "./schema.js";

export type GraphqlServerOptions = Omit<GraphqlContext, "apiKey" | "updateScope"> & {
  logger: Logger;
  graphiql?: boolean;
  /**
   * Operations per window over graphql-ws, counted with HTTP's (same limiter and policy names): each query,
   * mutation or subscription start is one. HTTP requests are limited where the route is mounted.
   */
  websocketLimit?: { deps: RateLimitDeps; limit: RouteLimit };
  /** Root fields charged to a REST route's per-key limit as well (`requests` → GET /requests/v3's). */
  fieldLimits?: { deps: RateLimitDeps; byField: Readonly<Record<string, RouteLimit>> };
  /** The role's Prometheus registry: createQuote outcomes are counted into it as REST quotes are. */
  metrics?: Metrics;
};

/** The key a caller presents: the `x-api-key` header over HTTP, `x-api-key` or `apiKey` in graphql-ws connectionParams. */
function presentedKey(initial: {
  request?: Request;
  connectionParams?: Readonly<Record<string, unknown>>;
}): string | undefined {
  const header = initial.request?.headers.get("x-api-key");
  if (header) return header;
  const params = initial.connectionParams ?? {};
  const value = params["x-api-key"] ?? params.apiKey;
  return typeof value === "string" ? value : undefined;
}

export type GraphqlServer = {
  /** The HTTP side (queries, mutations, GraphiQL, subscriptions over SSE): a fetch handler for `/graphql`. */
  fetch(request: Request): Response | Promise<Response>;
  /** The graphql-ws side: upgrades on `/graphql`. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): Promise<void>;
};

/** Limits every operation must pass before it runs, over HTTP and websockets alike. */
export const GRAPHQL_LIMITS = {
  // Deep and costly enough for a page of requests with every field of the v3 record (depth 9, cost ~2,500).
  depth: 10,
  aliases: 15,
  tokens: 2_000,
  cost: 5_000,
  subscriptionsPerConnection: 100,
  /** The fields that read far more than they return: a year of aggregates, a page with its total count. */
  perOperation: { requestStats: 1, requests: 3 },
} as const;

// Armor throws its rejections by default; report them as validation errors (ours, with a code) instead, and
// throw the parser's token-limit rejection as our own GraphQLError.
const reportRejection = {
  propagateOnRejection: false,
  onReject: [
    (context: ValidationContext | null, error: GraphQLError) =>
      context?.reportError(ownError(error, "GRAPHQL_VALIDATION_FAILED")),
  ],
};
const throwRejection = {
  propagateOnRejection: false,
  onReject: [
    (_: unknown, error: GraphQLError) => {
      throw ownError(error, "GRAPHQL_PARSE_FAILED");
    },
  ],
};

/**
 * GraphQL at `/graphql` (graphql-yoga over the Pothos schema) and graphql-ws on the same path: one envelop
 * pipeline, so limits, error masking and context are the same for HTTP and websocket operations.
 */
export function createGraphqlServer(options: GraphqlServerOptions): GraphqlServer {
  const { logger } = options;
  // The scopes of the most recent updates; older ones are dropped (a late reader simply loads again).
  const scopes = new Map<string, object>();
  const updateScope = (eventId: string) => {
    let scope = scopes.get(eventId);
    if (!scope) {
      scopes.set(eventId, (scope = {}));
      if (scopes.size > 256) scopes.delete(scopes.keys().next().value as string);
    }
    return scope;
  };
  const base = {
    updateScope,
    db: options.db,
    registry: options.registry,
    quoteEngine: options.quoteEngine,
    statusUpdates: options.statusUpdates,
    cursorSecret: options.cursorSecret,
    serverKey: options.serverKey,
    webhookPolicy: options.webhookPolicy,
    keyRecheckMs: options.keyRecheckMs,
  };
  const logFailure = createRequestFailureLog(logger);
  const yoga = createYoga<Record<string, unknown>, GraphqlContext>({
    schema,
    graphqlEndpoint: "/graphql",
    graphiql: options.graphiql ? { subscriptionsProtocol: "WS", title: "Crossfill GraphQL" } : false,
    // GraphiQL's code from the installed package, inlined in the page (yoga's default loads it from a CDN, blank
    // offline); imported on first view, so a gateway that never serves it never parses its 9 MB.
    renderGraphiQL: async (graphiqlOptions) =>
      (await import("@graphql-yoga/render-graphiql")).renderGraphiQL(graphiqlOptions),
    landingPage: false,
    // A fresh object per operation: the DataLoaders hang off it, so batching and caching never cross requests.
    context: (initial) => {
      let lookup: ReturnType<GraphqlContext["apiKey"]> | undefined;
      const key = presentedKey(initial as never);
      return { ...base, apiKey: () => (lookup ??= authenticate(options.db as pg.Pool, key)) };
    },
    plugins: [
      maxTokensPlugin({ n: GRAPHQL_LIMITS.tokens, ...throwRejection }),
      maxDepthPlugin({
        n: GRAPHQL_LIMITS.depth,
        ignoreIntrospection: true,
        flattenFragments: true,
        ...reportRejection,
      }),
      maxAliasesPlugin({ n: GRAPHQL_LIMITS.aliases, ...reportRejection }),
      costLimitPlugin({
        maxCost: GRAPHQL_LIMITS.cost,
        ignoreIntrospection: true,
        flattenFragments: true,
        ...reportRejection,
      }),
      limitExpensiveFields(GRAPHQL_LIMITS.perOperation),
      refuseNulStrings,
      ...(options.fieldLimits ? [sharedFieldLimits(options.fieldLimits.deps, options.fieldLimits.byField)] : []),
      codeValidationErrors,
      codeVariableErrors,
      errorStatus,
      ...(options.metrics ? [observeCreateQuote(options.metrics)] : []),
    ],
    maskedErrors: {
      maskError(error, message, isDev) {
        const original = error instanceof GraphQLError ? error.originalError : error;
        const domainError = domainErrorOf(original);
        if (domainError) {
          logFailure(original, { graphql: true });
          return domainGraphqlError(domainError, error as GraphQLError);
        }
        if (!(error instanceof GraphQLError) || error.originalError)
          logger.error({ err: original }, "graphql resolver failed");
        return maskError(error, message, isDev);
      },
    },
    logging: false,
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  // The key each connection authenticated with (graphql-ws hands the same context to every callback).
  const connectionKeys = new WeakMap<object, ApiKeyRecord | undefined>();
  /** The operation's rejection when its caller is over the websocket limit. */
  const overLimit = async (ctx: object, request: IncomingMessage): Promise<GraphQLError[] | undefined> => {
    const websocketLimit = options.websocketLimit;
    if (!websocketLimit) return undefined;
    const { deps, limit } = websocketLimit;
    const address = () => upgradeClientAddress(request, deps.trustForwardedFor);
    try {
      await hitRateLimits(deps, [policyFor(limit, connectionKeys.get(ctx), address)]);
      return undefined;
    } catch (error) {
      // A store that cannot count is a domain error too (countCall's SERVICE_UNAVAILABLE): nothing else reaches here.
      if (!isCrossfillError(error)) throw error;
      return [domainGraphqlError(error)];
    }
  };
  const server = useServer<Record<string, unknown>, { request: IncomingMessage }>(
    {
      // A key in connectionParams must be a valid one, as the header must over HTTP: otherwise 4403 Forbidden.
      onConnect: async (ctx) => {
        const key = presentedKey({ connectionParams: ctx.connectionParams });
        if (key === undefined) return true;
        return authenticate(options.db as pg.Pool, key).then(
          (record) => (connectionKeys.set(ctx, record), true),
          () => false,
        );
      },
      execute: (args) => (args.rootValue as { execute(args: ExecutionArgs): unknown }).execute(args) as never,
      subscribe: (args) => (args.rootValue as { subscribe(args: ExecutionArgs): unknown }).subscribe(args) as never,
      onSubscribe: async (ctx, id, payload) => {
        const open = Object.keys(ctx.subscriptions).filter((other) => other !== id).length;
        if (open >= GRAPHQL_LIMITS.subscriptionsPerConnection) {
          return [
            new GraphQLError(`at most ${GRAPHQL_LIMITS.subscriptionsPerConnection} operations at once per connection`, {
              extensions: { code: "INVALID_INPUT" },
            }),
          ];
        }
        const limited = await overLimit(ctx, ctx.extra.request);
        if (limited) return limited;
        try {
          checkJsonValue(payload.variables, "variables");
        } catch (error) {
          if (!isCrossfillError(error)) throw error;
          return [domainGraphqlError(error)];
        }
        const enveloped = yoga.getEnveloped({
          connectionParams: ctx.connectionParams,
          req: ctx.extra.request,
          socket: ctx.extra.socket,
          params: payload,
        });
        let document: DocumentNode;
        try {
          document = enveloped.parse(payload.query);
        } catch (error) {
          return [ownError(error as Error, "GRAPHQL_PARSE_FAILED")];
        }
        const errors = enveloped.validate(enveloped.schema, document);
        if (errors.length > 0) return errors.map((error: GraphQLError) => ownError(error, "GRAPHQL_VALIDATION_FAILED"));
        return {
          schema: enveloped.schema,
          document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue: await enveloped.contextFactory(),
          rootValue: { execute: enveloped.execute, subscribe: enveloped.subscribe },
        };
      },
    },
    wss,
  );

  return {
    async fetch(request) {
      let checked: Request;
      try {
        checked = await checkGraphqlRequest(request);
      } catch (error) {
        if (!isCrossfillError(error)) throw error;
        return Response.json({ errors: [domainGraphqlError(error)] }, { status: error.status });
      }
      return yoga.fetch(checked);
    },
    handleUpgrade(request, socket, head) {
      wss.handleUpgrade(request, socket, head, (ws) => wss.emit("connection", ws, request));
    },
    async close() {
      await server.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
