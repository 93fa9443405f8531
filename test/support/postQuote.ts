/** POST /quote/v2 and the parsed answer, whatever its status. */
export async function postQuote(apiUrl: string, body: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${apiUrl}/quote/v2`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}
