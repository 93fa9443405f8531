/** One GraphQL operation over HTTP POST /graphql, with an optional API key; the parsed body. */
export async function postGraphql(
  apiUrl: string,
  query: string,
  variables?: Record<string, unknown>,
  apiKey?: string,
): Promise<any> {
  const response = await fetch(`${apiUrl}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(apiKey ? { "x-api-key": apiKey } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return response.json();
}
