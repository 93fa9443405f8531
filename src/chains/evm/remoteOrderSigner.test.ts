import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { testOrder } from "../../../test/support/testOrder.js";
import { remoteOrderSigner } from "./remoteOrderSigner.js";
import { startOrderSignerServer } from "./startOrderSignerServer.js";

const solver = privateKeyToAccount(generatePrivateKey());
const token = "s".repeat(48);
const inTenMinutes = () => Math.floor(Date.now() / 1000) + 600;
const logger = pino({ level: "silent" });

describe("remoteOrderSigner", () => {
  it("fails the gateway's quote as retryable when the signer refuses or does not answer", async () => {
    const order = testOrder(solver.address, inTenMinutes());
    const server = await startOrderSignerServer({ solver, token, host: "127.0.0.1", port: 0, logger });
    await expect(
      remoteOrderSigner({ url: `${server.url}/`, token, address: solver.address }).signOrder(order),
    ).resolves.toMatch(/^0x[0-9a-f]{130}$/);
    await expect(
      remoteOrderSigner({ url: server.url, token: "w".repeat(48), address: solver.address }).signOrder(order),
    ).rejects.toMatchObject({ status: 503, errorCode: "SERVICE_UNAVAILABLE", message: expect.stringContaining("401") });
    await server.close();
    const gone = await startOrderSignerServer({ solver, token, host: "127.0.0.1", port: 0, logger });
    await gone.close();
    await expect(
      remoteOrderSigner({ url: gone.url, token, address: solver.address }).signOrder(order),
    ).rejects.toMatchObject({ status: 503, message: expect.stringContaining("does not answer") });
  });
});
