import { describe, expect, it } from "vitest";
import { V2_PARAMETERS } from "./parseRequestsV2Query.js";
import { V3_PARAMETERS } from "./parseRequestsQuery.js";
import { docsRoutes } from "./docsRoutes.js";
import { openapiDocument } from "./openapiDocument.js";

type Parameter = { name: string; in: string; required: boolean; schema: Record<string, unknown>; description?: string };

describe("OpenAPI document", () => {
  const document = openapiDocument() as {
    openapi: string;
    paths: Record<
      string,
      Record<string, { parameters?: Parameter[]; requestBody?: any; deprecated?: boolean; security?: unknown }>
    >;
  };

  it("is OpenAPI 3.1 and lists exactly the parameters the parsers accept", () => {
    expect(document.openapi).toBe("3.1.0");
    const v3 = document.paths["/requests/v3"].get;
    expect(v3.parameters!.map((p) => p.name).sort()).toEqual([...V3_PARAMETERS].sort());
    expect(v3.security).toEqual([{ apiKey: [] }]);
    const v2 = document.paths["/requests/v2"].get;
    expect(v2.parameters!.map((p) => p.name).sort()).toEqual([...V2_PARAMETERS].sort());
    expect(v2.deprecated).toBe(true);
    expect(v3.parameters!.every((p) => p.in === "query" && p.required === false)).toBe(true);
  });

  it("carries the validating schemas' bounds, enums and descriptions", () => {
    const byName = Object.fromEntries(document.paths["/requests/v3"].get.parameters!.map((p) => [p.name, p]));
    expect(byName.limit.schema).toMatchObject({ minimum: 1, maximum: 50 });
    expect(byName.status.schema).toMatchObject({ enum: ["success", "failure", "refund", "pending", "depositing"] });
    expect(byName.sortBy.schema).toMatchObject({ enum: ["createdAt", "updatedAt", "amountUsd"] });
    expect(byName.id.schema).toMatchObject({ pattern: "^0x[0-9a-fA-F]{64}$" });
    expect(byName.term.description).toMatch(/tx hash/);
    const quote = document.paths["/quote/v2"].post.requestBody.content["application/json"].schema;
    expect(quote.required).toEqual(
      expect.arrayContaining(["user", "originChainId", "destinationChainId", "amount", "tradeType"]),
    );
    expect(quote.properties.tradeType).toMatchObject({ enum: ["EXACT_INPUT", "EXACT_OUTPUT"] });
    expect(quote.properties.subsidizationBps).toMatchObject({ minimum: 0, maximum: 10000 });
    const quoteData = document.paths["/integrators/quote-data"].get.parameters!;
    expect(quoteData).toEqual([expect.objectContaining({ name: "requestId", required: true })]);
    expect(document.paths["/transactions/index"].post.requestBody.content["application/json"].schema.required).toEqual([
      "txHash",
      "chainId",
    ]);
    const claim = document.paths["/app-fees/{wallet}/claim/execute"].post;
    expect(claim.parameters!.map((p) => [p.name, p.in])).toEqual([
      ["wallet", "path"],
      ["signature", "query"],
    ]);
    expect(claim.requestBody.content["application/json"].schema.required).toEqual(
      expect.arrayContaining(["id", "wallet", "chainId", "currency", "recipient", "amount", "deadline"]),
    );
    expect(document.paths["/app-fees/{wallet}/balances"].get).toBeDefined();
    const authorize = document.paths["/authorize"].post;
    expect(authorize.parameters).toEqual([expect.objectContaining({ name: "signature", in: "query", required: true })]);
    const authorizeBody = authorize.requestBody.content["application/json"].schema;
    expect(authorizeBody.required).toEqual([
      "type",
      "walletChainId",
      "wallet",
      "depositor",
      "nonce",
      "id",
      "signatureChainId",
    ]);
    expect(authorizeBody.properties.type).toMatchObject({ const: "nonce-mapping" });
  });

  it("serves /openapi.json and a docs page whose assets come from swagger-ui-dist", async () => {
    const app = docsRoutes();
    expect(await (await app.request("/openapi.json")).json()).toEqual(JSON.parse(JSON.stringify(document)));
    const page = await (await app.request("/docs")).text();
    expect(page).toContain('url: "/openapi.json"');
    const bundle = await app.request("/docs/assets/swagger-ui-bundle.js");
    expect(bundle.headers.get("content-type")).toBe("text/javascript");
    expect((await bundle.text()).length).toBeGreaterThan(100_000);
    expect((await app.request("/docs/assets/swagger-ui.css")).status).toBe(200);
    expect(await (await app.request("/docs/api.md")).text()).toContain("### Migrating from GET /requests/v2");
    expect((await app.request("/docs/assets/..%2Fpackage.json")).status).toBe(404);
  });
});
