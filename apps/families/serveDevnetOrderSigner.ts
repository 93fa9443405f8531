import { randomBytes } from "node:crypto";
import type { Logger } from "pino";
import type { EvmKeys } from "../../src/chains/evm/evmKeys.js";
import { evmSolver } from "../../src/chains/evm/evmSolver.js";
import { startOrderSignerServer } from "../../src/chains/evm/startOrderSignerServer.js";

/**
 * For a composition that runs the gateway and the worker side by side (npm start, the test stack): the worker's order
 * signer on a free loopback port with a token of its own, and the keys the gateway gets — the solver's address and
 * the signer's URL and token, not the key — so the gateway signs orders as it does in production. Without an EVM
 * solver key there is nothing to serve, and the gateway's keys are the ones given.
 */
export async function serveDevnetOrderSigner(
  keys: EvmKeys,
  logger: Logger,
): Promise<{ gatewayKeys: EvmKeys; close(): Promise<void> }> {
  if (!keys.solverPrivateKey) return { gatewayKeys: keys, close: async () => {} };
  const solver = evmSolver(keys.solverPrivateKey);
  const token = randomBytes(32).toString("hex");
  const server = await startOrderSignerServer({ solver, token, host: "127.0.0.1", port: 0, logger });
  return {
    gatewayKeys: {
      solverPrivateKey: undefined,
      solverAddress: solver.address,
      orderSignerUrl: server.url,
      orderSignerToken: token,
    },
    close: () => server.close(),
  };
}
