import type { LocalAccount } from "viem";
import type { Logger } from "pino";
import { type ListeningApp, listenApp } from "../../runtime/listenApp.js";
import { localOrderSigner } from "./localOrderSigner.js";
import { orderSignerRoutes } from "./orderSignerRoutes.js";

/**
 * The worker's order signer service (`orderSignerRoutes` with the solver's key) on `host:port`, for the gateways
 * (ORDER_SIGNER_URL); bound to loopback unless the operator says otherwise.
 */
export async function startOrderSignerServer(options: {
  solver: LocalAccount;
  token: string;
  host: string;
  port: number;
  logger: Logger;
}): Promise<ListeningApp> {
  const server = await listenApp(
    orderSignerRoutes(localOrderSigner(options.solver), options.token),
    options.host,
    options.port,
  );
  options.logger.info({ url: server.url, solver: options.solver.address }, "order signer listening");
  return server;
}
