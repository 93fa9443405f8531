import WebSocket from "ws";

/**
 * A `/ws` client of one gateway, subscribed with `filters` (`id`, `wallet` or `chainId`), calling `onUpdate` with the
 * `data` of every `request.status.updated` message; resolves once the gateway confirmed the subscription.
 */
export async function openStatusFeed(
  apiUrl: string,
  filters: Record<string, unknown>,
  onUpdate: (data: { requestId: string; status: string } & Record<string, unknown>) => void,
): Promise<{ close(): void }> {
  const socket = new WebSocket(`${apiUrl.replace(/^http/, "ws")}/ws`);
  socket.on("message", (raw) => {
    const message = JSON.parse(String(raw));
    if (message.event === "request.status.updated" && message.data) onUpdate(message.data);
  });
  await new Promise((resolve, reject) => {
    socket.once("open", resolve);
    socket.once("error", reject);
  });
  const subscribed = new Promise<void>((resolve, reject) =>
    socket.once("message", (raw) => {
      const reply = JSON.parse(String(raw));
      if (reply.type === "subscribed") resolve();
      else reject(new Error(`subscription refused: ${String(raw)}`));
    }),
  );
  socket.send(JSON.stringify({ type: "subscribe", event: "request.status.updated", filters }));
  await subscribed;
  return { close: () => socket.close() };
}
