import { z } from "zod";
import { quoteRequestSchema } from "../../quote/quoteRequestSchema.js";
import { quoteDataQuerySchema, v2QuerySchema, v3QuerySchema } from "./requestsQuerySchemas.js";
import { authorizeBody, authorizeQuery } from "./authorizeRoutes.js";
import { claimBody, claimExecuteBody, signatureQuery } from "./appFeeRoutes.js";
import { indexAnswer, indexBody } from "./transactionRoutes.js";
import { requestRecordV2Schema } from "./requestRecordV2Schema.js";
import { requestRecordV3Schema } from "./requestRecordV3Schema.js";

type JsonSchema = Record<string, unknown>;

/** JSON Schema of what a caller sends (a schema's input side: before coercions and defaults). */
function inputSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    io: "input",
    unrepresentable: "any",
    target: "draft-2020-12",
  }) as JsonSchema;
  return rest;
}

/** JSON Schema of what a route answers (a schema's output side). */
function outputSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    io: "output",
    target: "draft-2020-12",
  }) as JsonSchema;
  return rest;
}

/** One OpenAPI query parameter per key of a zod object schema; descriptions and bounds come from the schema. */
function queryParameters(schema: z.ZodObject): JsonSchema[] {
  return Object.entries(schema.shape).map(([name, field]) => {
    const json = inputSchema(field as z.ZodType);
    const { description, ...fieldSchema } = json;
    return {
      name,
      in: "query",
      required: !(field as z.ZodType).safeParse(undefined).success,
      ...(description ? { description } : {}),
      schema: fieldSchema,
    };
  });
}

const json = (schema: JsonSchema) => ({ "application/json": { schema } });
const errorResponse = (description: string) => ({ description, content: json({ $ref: "#/components/schemas/Error" }) });
const ERRORS = {
  "400": errorResponse("bad input; the message names the parameter"),
  "429": errorResponse("rate limited; see Retry-After"),
};
const AUTH_ERRORS = {
  "401": errorResponse("missing, unknown or revoked x-api-key"),
  "403": errorResponse("not owned by your integrator"),
};
const anyObject = { type: "object", additionalProperties: true };
const WALLET = {
  name: "wallet",
  in: "path",
  required: true,
  schema: { type: "string" },
  description: "An EVM address",
};

/** The OpenAPI 3.1 document of the REST surface, generated from the zod schemas the routes validate with. */
// GET /requests (the spec's older path) answers as GET /requests/v2 does.
const requestsV2Path = {
  get: {
    summary: "List requests (deprecated; retired 2026-11-24)",
    deprecated: true,
    parameters: queryParameters(v2QuerySchema),
    responses: {
      "200": {
        description: "A page of v2 records with a deprecation object",
        content: json({
          type: "object",
          required: ["requests", "continuation", "deprecation"],
          properties: {
            requests: { type: "array", items: outputSchema(requestRecordV2Schema) },
            continuation: { type: ["string", "null"] },
            deprecation: {
              type: "object",
              required: ["message", "deprecatedAt", "throttledFrom", "sunsetAt", "successor", "migrationGuide"],
              properties: Object.fromEntries(
                ["message", "deprecatedAt", "throttledFrom", "sunsetAt", "successor", "migrationGuide"].map((key) => [
                  key,
                  { type: "string" },
                ]),
              ),
            },
          },
        }),
      },
      "410": { description: "retired", content: json(anyObject) },
      ...ERRORS,
    },
  },
};

export function openapiDocument(serverUrl?: string): JsonSchema {
  const quoteBody = { required: true, content: json(inputSchema(quoteRequestSchema)) };
  return {
    openapi: "3.1.0",
    info: {
      title: "Crossfill",
      version: "1",
      description:
        "Cross-chain intents: quote, deposit, fill. Choices the public interface leaves open are documented in docs/API.md.",
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    components: {
      securitySchemes: { apiKey: { type: "apiKey", in: "header", name: "x-api-key" } },
      schemas: {
        Error: {
          type: "object",
          required: ["message", "errorCode"],
          properties: { message: { type: "string" }, errorCode: { type: "string" } },
        },
      },
    },
    paths: {
      "/quote/v2": {
        post: {
          summary: "Executable quote",
          requestBody: quoteBody,
          responses: { "200": { description: "Quote response", content: json(anyObject) }, ...ERRORS },
        },
      },
      "/quote": {
        post: {
          summary: "Executable quote (same as /quote/v2)",
          requestBody: quoteBody,
          responses: { "200": { description: "Quote response", content: json(anyObject) }, ...ERRORS },
        },
      },
      "/price": {
        post: {
          summary: "Price only: the quote's fees, fee sponsorship and details; nothing stored",
          requestBody: quoteBody,
          responses: {
            "200": {
              description: "{fees, feeSponsorship, details}",
              content: json({
                type: "object",
                properties: { fees: anyObject, feeSponsorship: anyObject, details: anyObject },
              }),
            },
            ...ERRORS,
          },
        },
      },
      "/intents/status/v3": {
        get: {
          summary: "Status of one request",
          parameters: [
            {
              name: "requestId",
              in: "query",
              required: true,
              schema: { type: "string", pattern: "^0x[0-9a-fA-F]{64}$" },
            },
          ],
          responses: {
            "200": { description: "Status record", content: json(anyObject) },
            "404": errorResponse("unknown request"),
            ...ERRORS,
          },
        },
      },
      "/requests/v3": {
        get: {
          summary: "List and search requests",
          security: [{ apiKey: [] }],
          parameters: queryParameters(v3QuerySchema),
          responses: {
            "200": {
              description: "A page of v3 request records",
              content: json({
                type: "object",
                required: ["requests", "continuation"],
                properties: {
                  requests: { type: "array", items: outputSchema(requestRecordV3Schema) },
                  continuation: { type: ["string", "null"] },
                  total: { type: "integer" },
                },
              }),
            },
            ...ERRORS,
            ...AUTH_ERRORS,
          },
        },
      },
      "/requests/v2": requestsV2Path,
      "/requests": requestsV2Path,
      "/integrators/quote-data": {
        get: {
          summary: "Quote-time data of one of your requests",
          security: [{ apiKey: [] }],
          parameters: queryParameters(quoteDataQuerySchema),
          responses: {
            "200": { description: "Stored quote data", content: json(anyObject) },
            "404": errorResponse("unknown request"),
            ...ERRORS,
            ...AUTH_ERRORS,
          },
        },
      },
      "/app-fees/{wallet}/balances": {
        get: {
          summary: "App fees the wallet earned and has not claimed (docs/API.md, App fees)",
          parameters: [WALLET],
          responses: {
            "200": { description: "{balances: [Amount], totalBalanceUsd, …}", content: json(anyObject) },
            ...ERRORS,
          },
        },
      },
      "/app-fees/{wallet}/claims": {
        get: {
          summary: "The wallet's claims, newest first: queued, sent, paid",
          parameters: [WALLET],
          responses: { "200": { description: "{claims: […]}", content: json(anyObject) }, ...ERRORS },
        },
      },
      "/app-fees/{wallet}/claim": {
        post: {
          summary: "A claim of app fees: one EIP-712 signature step, signed by the wallet",
          parameters: [WALLET],
          requestBody: { required: true, content: json(inputSchema(claimBody)) },
          responses: { "200": { description: "{steps: [claim step]}", content: json(anyObject) }, ...ERRORS },
        },
      },
      "/app-fees/{wallet}/claim/execute": {
        post: {
          summary: "The claim step's post: accepts the wallet's signed claim once; the worker pays it out",
          parameters: [WALLET, ...queryParameters(signatureQuery)],
          requestBody: { required: true, content: json(inputSchema(claimExecuteBody)) },
          responses: {
            "200": { description: "{message, claimId, status, txHash}", content: json(anyObject) },
            ...ERRORS,
          },
        },
      },
      "/authorize": {
        post: {
          summary: "Authorize a perps-exchange withdrawal's nonce mapping (the authorize step's post)",
          parameters: queryParameters(authorizeQuery),
          requestBody: { required: true, content: json(inputSchema(authorizeBody)) },
          responses: {
            "200": {
              description: "recorded (or already recorded)",
              content: json({
                type: "object",
                properties: {
                  message: { type: "string" },
                  requestId: { type: "string" },
                  depositor: { type: "string" },
                  nonce: { type: "string" },
                },
              }),
            },
            "403": errorResponse("wallet is not the request's user"),
            "404": errorResponse("unknown request"),
            "409": errorResponse("nonce already pays another request, or the request is past waiting"),
            ...ERRORS,
          },
        },
      },
      "/chains": {
        get: { summary: "Chain metadata", responses: { "200": { description: "{chains}", content: json(anyObject) } } },
      },
      "/transactions/index": {
        post: {
          summary: "Index a transaction the indexer missed",
          requestBody: { required: true, content: json(inputSchema(indexBody)) },
          responses: {
            "200": {
              description: "What the transaction made and what was recorded",
              content: json(outputSchema(indexAnswer)),
            },
            "404": errorResponse(
              "the chain does not have the transaction, or does not count it yet (Bitcoin: in a block; a Solana fill: finalized)",
            ),
            ...ERRORS,
          },
        },
      },
    },
  };
}
