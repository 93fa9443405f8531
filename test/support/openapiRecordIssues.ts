import { z } from "zod";

/**
 * What a v3 request record breaks of the record schema the API publishes in its own /openapi.json (GET /requests/v3's
 * items): one line per issue, none when it conforms.
 */
export async function openapiRecordIssues(apiUrl: string, record: unknown): Promise<string[]> {
  const document = await fetch(`${apiUrl}/openapi.json`).then((response) => response.json());
  const items =
    document.paths["/requests/v3"].get.responses["200"].content["application/json"].schema.properties.requests.items;
  const checked = z.fromJSONSchema(items).safeParse(record);
  return checked.success ? [] : checked.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
}
