import { type AddressInfo, type Socket, createServer } from "node:net";
import pg from "pg";
import pino from "pino";
import { zeroAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chainConfigSchema } from "../src/chains/chainConfig.js";
import { createChainRegistry } from "../src/chains/chainRegistry.js";
import { createStatusBus } from "../src/events/createStatusBus.js";
import { type GatewayServer, startGatewayServer } from "../src/gateway/server.js";
import { createStaticPriceSource } from "../src/pricing/priceSource.js";
import { createSolverInventory } from "../src/quote/solverInventory.js";
import { solverAdapters } from "../src/roles/solverAdapters.js";
import { migrate } from "../schema/migrate.js";
import { postQuote } from "./support/postQuote.js";
import { createTestDatabase } from "./support/testDatabase.js";

/** Two chains served by one node URL, with a short RPC timeout. */
function chainsAt(rpcUrl: string) {
  return [31338, 31339].map((id) =>
    chainConfigSchema.parse({
      id,
      name: `chain-${id}`,
      rpcUrl,
      rpcTimeoutMs: 300,
      depository: "0x00000000000000000000000000000000000000d0",
      receiver: "0x00000000000000000000000000000000000000e0",
    }),
  );
}

describe("a quote whose chain node fails", () => {
  const servers: GatewayServer[] = [];
  const statusBus = createStatusBus();
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  const sockets: Socket[] = [];
  // Accepts connections and never answers.
  const silent = createServer((socket) => void sockets.push(socket));
  let pool: pg.Pool;
  let silentUrl: string;
  let refusedUrl: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    await migrate(pool);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    // A port that was just free and is closed again: connections to it are refused.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    refusedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
    await statusBus.close();
    await pool?.end();
    await db?.drop();
  });

  async function apiWith(rpcUrl: string): Promise<string> {
    const chains = chainsAt(rpcUrl);
    const registry = createChainRegistry(chains);
    const adapters = solverAdapters(chains, { evm: privateKeyToAccount(generatePrivateKey()) });
    const server = await startGatewayServer({
      host: "127.0.0.1",
      port: 0,
      statusBus,
      pool,
      registry,
      adapters,
      logger: pino({ level: "silent" }),
      quoteEngine: {
        registry,
        adapters,
        prices: createStaticPriceSource({ ETH: "3000" }),
        inventory: createSolverInventory(adapters),
        saveRequest: async () => undefined,
        settings: { serviceFeeBps: 5n, defaultSlippageBps: 50n, quoteTtlSeconds: 600 },
        // Both chains open: only their nodes fail here.
        availability: async () => ({
          disabled: false,
          depositEnabled: true,
          partialDisableLimitUsd: null,
          blockProductionLagging: false,
          reason: null,
        }),
      },
    });
    servers.push(server);
    return server.url;
  }

  const quote = {
    user: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    originChainId: 31338,
    destinationChainId: 31339,
    originCurrency: zeroAddress,
    destinationCurrency: zeroAddress,
    amount: "1000000000000000000",
    tradeType: "EXACT_INPUT",
  };

  it("answers 502 RPC_HTTP_ERROR when the node refuses the connection", async () => {
    const { status, body } = await postQuote(await apiWith(refusedUrl), quote);
    expect({ status, errorCode: body.errorCode }).toEqual({ status: 502, errorCode: "RPC_HTTP_ERROR" });
    expect(body.message).toMatch(/chain 3133[89]'s node failed/);
  });

  it("answers 504 REQUEST_TIMED_OUT when the node never answers", async () => {
    const { status, body } = await postQuote(await apiWith(silentUrl), quote);
    expect({ status, errorCode: body.errorCode }).toEqual({ status: 504, errorCode: "REQUEST_TIMED_OUT" });
  });
});
