import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { privateKeyToAccount } from "viem/accounts";
import { anvilMnemonic, devnetAccounts } from "../devnetAccounts.js";
import type { DevnetSigner } from "../startDevnetChains.js";
import { devnetExchangeKey } from "./devnetExchangeKey.js";
import { exchangeApp } from "./exchangeApp.js";
import { createExchangeLedger, type ExchangeLedger, type ExchangeNetwork } from "./exchangeLedger.js";
import { devnetExchangeTokens, type ExchangeToken } from "./exchangeTokens.js";

const unit = 10n ** 8n;
/** What each test account holds at genesis: perps USDC, and spot USDC and HYPE (all 8 decimals). */
export const devnetExchangeAccountFunds = {
  perpsUsdc: 100_000n * unit,
  spot: { USDC: 10_000n * unit, HYPE: 1_000n * unit },
};
/** The solver's genesis funds, to pay deposits to the exchange with. */
export const devnetExchangeSolverFunds = {
  perpsUsdc: 10_000_000n * unit,
  spot: { USDC: 1_000_000n * unit, HYPE: 100_000n * unit },
};

export type StartDevnetExchangeOptions = {
  /** Port on 127.0.0.1; without it the OS picks a free one. */
  port?: number;
  /**
   * The network actions must be signed for (default Testnet: a signature made for the devnet is then worthless on
   * the real exchange's main network, even with a real key).
   */
  network?: ExchangeNetwork;
  /** The mnemonic of the EVM test accounts, which are funded here too (a wallet has one address on both). */
  mnemonic?: string;
  /** Clock in milliseconds (tests can pin it): ledger times and the nonce window. */
  now?: () => number;
};

export type DevnetExchange = {
  /** Base URL of the exchange API (`/exchange`, `/info`, `/explorer`), no trailing slash. */
  url: string;
  port: number;
  network: ExchangeNetwork;
  tokens: readonly ExchangeToken[];
  /** The EVM test accounts (mnemonic indexes 1..5), funded. */
  accounts: DevnetSigner[];
  /** Pays deposits to the exchange; funded. */
  solver: DevnetSigner;
  /** Receives withdrawals from the exchange and signs their refunds; exists, holds nothing at genesis. */
  depository: DevnetSigner;
  /** The exchange's state, for in-process assertions. */
  ledger: ExchangeLedger;
  stop(): Promise<void>;
};

/**
 * Starts the devnet's perps exchange: the exchange's public HTTP API over an in-memory ledger on 127.0.0.1, with
 * deterministic, publicly known funded keys (never use them outside the devnet).
 */
export async function startDevnetExchange(options: StartDevnetExchangeOptions = {}): Promise<DevnetExchange> {
  const { port = 0, network = "Testnet", mnemonic = anvilMnemonic, now = Date.now } = options;
  const ledger = createExchangeLedger({ network, tokens: devnetExchangeTokens, now });
  const accounts = devnetAccounts(mnemonic).testAccounts.map((a): DevnetSigner =>
    Object.assign(privateKeyToAccount(a.privateKey), { privateKey: a.privateKey }),
  );
  const solver = devnetExchangeKey("solver");
  const depository = devnetExchangeKey("depository");
  for (const account of accounts) ledger.fund(account.address, devnetExchangeAccountFunds);
  ledger.fund(solver.address, devnetExchangeSolverFunds);
  ledger.fund(depository.address, {});

  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: exchangeApp(ledger, now).fetch, hostname: "127.0.0.1", port }, () => resolve(s));
    s.once("error", reject);
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}`,
    port: bound,
    network,
    tokens: ledger.tokens,
    accounts,
    solver,
    depository,
    ledger,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive connections would hold close() open.
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      }),
  };
}
