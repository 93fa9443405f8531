/** One GraphQL operation over HTTP against the gateway that served this page; the first error becomes a throw. */
export async function graphqlRequest<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const response = await fetch("/graphql", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json().catch(() => ({}))) as { data?: T; errors?: { message: string }[] };
  if (body.errors?.length) throw new Error(body.errors[0].message);
  if (!response.ok || body.data === undefined) throw new Error(`the API answered ${response.status}`);
  return body.data;
}
