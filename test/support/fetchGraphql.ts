/** One GraphQL operation POSTed to an in-process server (no port), with an optional API key; the parsed body. */
export async function fetchGraphql(
  server: { fetch(request: Request): Response | Promise<Response> },
  query: string,
  variables?: Record<string, unknown>,
  apiKey?: string,
): Promise<any> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    ...(apiKey ? { "x-api-key": apiKey } : {}),
  };
  const response = await server.fetch(
    new Request("http://localhost/graphql", { method: "POST", headers, body: JSON.stringify({ query, variables }) }),
  );
  return response.json();
}
