import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { address, type Network, networks } from "bitcoinjs-lib";
import { type DevnetBitcoinKey, devnetBitcoinKey } from "./devnetBitcoinKey.js";
import { type DevnetDepositAddressKey, devnetDepositAddressKey } from "./devnetDepositAddressKey.js";
import { esploraApp } from "./esploraApp.js";
import { createRegtestChain, type RegtestChain } from "./regtestChain.js";

/** Default time between timer-mined blocks; `npm start` may override it with DEVNET_BITCOIN_BLOCK_TIME. */
export const defaultBitcoinBlockTimeMs = 5_000;
/** What each test account holds at genesis: 10 BTC. */
export const devnetBitcoinAccountSats = 1_000_000_000n;
/** What the solver holds at genesis: 100 BTC, in ten outputs so fills in one block need not wait on each other's change. */
export const devnetBitcoinSolverOutputs = 10;
export const devnetBitcoinSolverOutputSats = 1_000_000_000n;

export type StartDevnetBitcoinOptions = {
  /** Port on 127.0.0.1; without it the OS picks a free one. */
  port?: number;
  /** Milliseconds between timer-mined blocks; 0 mines only on demand (tests). */
  blockTimeMs?: number;
  /** How many funded test accounts (default 5). */
  accounts?: number;
  /** Clock for block timestamps, in milliseconds (tests can pin it). */
  now?: () => number;
};

export type DevnetBitcoin = {
  /** Base URL of the Esplora REST API, no trailing slash. */
  esploraUrl: string;
  port: number;
  network: Network;
  blockTimeMs: number;
  /** Funded test accounts, bech32 P2WPKH (bcrt1q…), each with one 10 BTC genesis output. */
  accounts: DevnetBitcoinKey[];
  /** The solver's wallet, ten 10 BTC genesis outputs. */
  solver: DevnetBitcoinKey;
  /** Where deposits go; unfunded. Its key is devnet-only, for sweeps and refunds. */
  depository: DevnetBitcoinKey;
  /** Receives the coinbase of every mined block. */
  miner: DevnetBitcoinKey;
  /** The BIP84 account key of deposit addresses (tpub for the gateway, tprv for the worker); devnet-only. */
  depositAddressKey: DevnetDepositAddressKey;
  /** The chain itself, for in-process assertions. */
  chain: RegtestChain;
  mine(blocks?: number): string[];
  reorg(depth: number, options?: { dropTxids?: Iterable<string> }): string[];
  /** Stops the block timer and the HTTP server, closing open connections. */
  stop(): Promise<void>;
};

/**
 * Starts the devnet's Bitcoin: an in-memory regtest chain behind the Esplora REST API on 127.0.0.1, with
 * deterministic, publicly known keys (never use them outside the devnet).
 */
export async function startDevnetBitcoin(options: StartDevnetBitcoinOptions = {}): Promise<DevnetBitcoin> {
  const { port = 0, blockTimeMs = defaultBitcoinBlockTimeMs, accounts: accountCount = 5, now } = options;
  if (!Number.isInteger(blockTimeMs) || blockTimeMs < 0)
    throw new Error(`blockTimeMs must be a non-negative integer (got ${blockTimeMs})`);
  const network = networks.regtest;
  const accounts = Array.from({ length: accountCount }, (_, i) => devnetBitcoinKey(`account ${i + 1}`));
  const solver = devnetBitcoinKey("solver");
  const depository = devnetBitcoinKey("depository");
  const miner = devnetBitcoinKey("miner");
  const script = (key: DevnetBitcoinKey) => address.toOutputScript(key.address, network);
  const chain = createRegtestChain({
    network,
    minerScript: script(miner),
    funding: [
      ...accounts.map((a) => ({ script: script(a), value: devnetBitcoinAccountSats })),
      ...Array.from({ length: devnetBitcoinSolverOutputs }, () => ({
        script: script(solver),
        value: devnetBitcoinSolverOutputSats,
      })),
    ],
    now,
  });

  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: esploraApp(chain).fetch, hostname: "127.0.0.1", port }, () => resolve(s));
    s.once("error", (err) => reject(new Error(`cannot start the devnet Esplora on port ${port}: ${err.message}`)));
  });
  const boundPort = (server.address() as AddressInfo).port;
  const timer = blockTimeMs > 0 ? setInterval(() => chain.mine(1), blockTimeMs) : undefined;

  return {
    esploraUrl: `http://127.0.0.1:${boundPort}`,
    port: boundPort,
    network,
    blockTimeMs,
    accounts,
    solver,
    depository,
    miner,
    depositAddressKey: devnetDepositAddressKey(),
    chain,
    mine: (blocks = 1) => chain.mine(blocks),
    reorg: (depth, opts) => chain.reorg(depth, opts),
    stop: () =>
      new Promise<void>((resolve, reject) => {
        clearInterval(timer);
        server.close((err) => (err ? reject(err) : resolve()));
        // fetch keeps connections alive; close() alone would wait for them to time out.
        if ("closeAllConnections" in server) server.closeAllConnections();
      }),
  };
}
