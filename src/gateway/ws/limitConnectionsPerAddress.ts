import type { IncomingMessage } from "node:http";
import { RateLimitedError } from "../../domain/errors.js";
import { refuseUpgrade } from "./refuseUpgrade.js";
import type { UpgradeHandler } from "./routeUpgrades.js";

/**
 * Caps the websocket connections one client address holds open at once (subscriptions cost the gateway memory
 * for as long as they last, whatever the request rate limits say): the upgrade past the cap is refused with 429.
 * The count drops as each connection's socket closes.
 */
export function limitConnectionsPerAddress(
  handler: UpgradeHandler,
  options: { max: number; clientAddress: (request: IncomingMessage) => string },
): UpgradeHandler {
  const open = new Map<string, number>();
  return (request, socket, head) => {
    const address = options.clientAddress(request);
    const count = open.get(address) ?? 0;
    if (count >= options.max) {
      return refuseUpgrade(
        socket,
        new RateLimitedError(`at most ${options.max} websocket connections at once per client address`),
      );
    }
    open.set(address, count + 1);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
    handler(request, socket, head);
  };
}
