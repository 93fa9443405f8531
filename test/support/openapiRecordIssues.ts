import { z } from "zod";

/** Where /openapi.json publishes each record version's schema: the items of its listing's 200 answer. */
const LISTINGS = { v3: "/requests/v3", v2: "/requests/v2" } as const;

/**
 * What a request record breaks of the record schema the API publishes in its own /openapi.json (GET /requests/v3's
 * items, or GET /requests/v2's for a v2 record): one line per issue, none when it conforms.
 */
export async function openapiRecordIssues(
  apiUrl: string,
  record: unknown,
  version: keyof typeof LISTINGS = "v3",
): Promise<string[]> {
  const document = await fetch(`${apiUrl}/openapi.json`).then((response) => response.json());
  const items =
    document.paths[LISTINGS[version]].get.responses["200"].content["application/json"].schema.properties.requests.items;
  const checked = z.fromJSONSchema(items).safeParse(record);
  return checked.success ? [] : checked.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
}
