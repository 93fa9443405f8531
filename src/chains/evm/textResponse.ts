/** The members of `Response` viem's HTTP transport reads when its body is `null` (viem/utils/rpc/http.ts). */
type RpcResponse = Pick<Response, "ok" | "status" | "statusText" | "headers" | "body" | "text">;

/** A whole answer already read, as the `Response` viem's transport takes from a custom fetch; it reads no stream. */
export function textResponse(status: number, statusText: string, headers: Headers, text: string): Response {
  const answer: RpcResponse = {
    ok: status >= 200 && status < 300,
    status,
    statusText,
    headers,
    body: null,
    text: async () => text,
  };
  return answer as Response;
}
