import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Transaction } from "bitcoinjs-lib";

/**
 * What the service's Esplora does with a broadcast: `pass` it on; `refuse` — the node refuses it (400) and does not
 * show it until it is mined, while it reached other nodes all the same (it is passed on to the devnet); `down` — the
 * POST fails in transport (502), nothing is sent.
 */
export type EsploraFault = "pass" | "refuse" | "down";

export type EsploraProxy = { url: string; fault: EsploraFault; close(): Promise<void> };

/** An Esplora in front of the devnet's, for the service, with the broadcast faults a real one can have. */
export async function startEsploraProxy(upstream: string): Promise<EsploraProxy> {
  const hidden = new Set<string>();
  const proxy: EsploraProxy = { url: "", fault: "pass", close: async () => undefined };
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    const path = request.url ?? "/";
    const forward = () =>
      fetch(`${upstream}${path}`, { method: request.method, ...(request.method === "POST" ? { body } : {}) });
    if (request.method === "POST" && path === "/tx" && proxy.fault !== "pass") {
      if (proxy.fault === "down") return void response.writeHead(502).end("Bad Gateway");
      await forward();
      hidden.add(Transaction.fromHex(body.trim()).getId());
      return void response
        .writeHead(400)
        .end('sendrawtransaction RPC error: {"code":-26,"message":"mempool min fee not met"}');
    }
    const txid = /^\/tx\/([0-9a-f]{64})(\/status)?$/.exec(path)?.[1];
    if (txid && hidden.has(txid)) {
      const status = await fetch(`${upstream}/tx/${txid}/status`);
      if (status.status !== 200 || !(await status.json()).confirmed)
        return void response.writeHead(404).end("Transaction not found");
    }
    const answer = await forward();
    response.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "text/plain" });
    response.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}
