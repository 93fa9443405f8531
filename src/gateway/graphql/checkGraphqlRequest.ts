import { parseJsonText } from "../http/jsonBody.js";

/**
 * The JSON a GraphQL request carries (a POST body; GET's `variables` and `extensions`) through the same edge check
 * as REST bodies (NUL characters, nesting), before yoga parses it; throws InvalidInputError. A checked POST body is
 * handed on as a fresh request, since reading consumed it.
 */
export async function checkGraphqlRequest(request: Request): Promise<Request> {
  if (request.method === "GET") {
    const params = new URL(request.url).searchParams;
    for (const name of ["variables", "extensions"]) {
      const text = params.get(name);
      if (text) parseJsonText(text, name);
    }
    return request;
  }
  if (request.method !== "POST" || !request.headers.get("content-type")?.includes("json")) return request;
  const text = await request.text();
  parseJsonText(text);
  return new Request(request.url, { method: "POST", headers: request.headers, body: text, signal: request.signal });
}
