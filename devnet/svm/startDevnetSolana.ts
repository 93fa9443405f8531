import type { Keypair } from "@solana/web3.js";
import { devnetSolanaKeypair } from "./devnetSolanaKeypair.js";
import { serveSolanaRpc } from "./serveSolanaRpc.js";
import { solanaGenesis } from "./solanaGenesis.js";
import { createSvmLedger, type SvmLedger } from "./svmLedger.js";

/** Default slot time, as a Solana cluster's; `npm start` may override it with DEVNET_SOLANA_SLOT_MS. */
export const defaultSolanaSlotMs = 400;
const sol = 1_000_000_000n;
const usdc = 1_000_000n;
/** What each test account holds at genesis. */
export const devnetSolanaAccountLamports = 100n * sol;
export const devnetSolanaAccountUsdc = 100_000n * usdc;
/** The solver's genesis funds: enough SOL for fees and new accounts' rent, and USDC to fill with. */
export const devnetSolanaSolverLamports = 1_000n * sol;
export const devnetSolanaSolverUsdc = 10_000_000n * usdc;
/** The depository pays the fees of refunds; it holds no USDC at genesis but has its token account. */
export const devnetSolanaDepositoryLamports = 10n * sol;

export type StartDevnetSolanaOptions = {
  /** HTTP port on 127.0.0.1 (the websocket is on it and on port + 1); without it two free ports are picked. */
  port?: number;
  /** Milliseconds per slot; 0 advances only on demand (`advance`). */
  slotMs?: number;
  /** Slots after landing before a transaction is `confirmed` (default 1) and `finalized` (default 32). */
  confirmedAfterSlots?: number;
  finalizedAfterSlots?: number;
  /** How many funded test accounts (default 5). */
  accounts?: number;
  /** Clock for block times, in milliseconds (tests can pin it). */
  now?: () => number;
};

export type DevnetSolana = {
  rpcUrl: string;
  wsUrl: string;
  port: number;
  slotMs: number;
  /** The devnet USDC mint (6 decimals). */
  usdcMint: string;
  /** Funded test accounts (SOL and USDC). */
  accounts: Keypair[];
  solver: Keypair;
  /** Where deposits go (its USDC associated token account exists); devnet-only key, for refunds. */
  depository: Keypair;
  /** The chain itself, for in-process assertions. */
  ledger: SvmLedger;
  /** Produces `count` slots now (tests). */
  advance(count?: number): void;
  /** Stops the slot timer and the servers, closing open connections. */
  stop(): Promise<void>;
};

/**
 * Starts the devnet's Solana: litesvm behind Solana's JSON-RPC and websocket pubsub on 127.0.0.1, with a devnet
 * USDC mint and deterministic, publicly known funded keys (never use them outside the devnet).
 */
export async function startDevnetSolana(options: StartDevnetSolanaOptions = {}): Promise<DevnetSolana> {
  const { port = 0, slotMs = defaultSolanaSlotMs, accounts: accountCount = 5, now } = options;
  if (!Number.isInteger(slotMs) || slotMs < 0) throw new Error(`slotMs must be a non-negative integer (got ${slotMs})`);
  const ledger = createSvmLedger({
    confirmedAfterSlots: options.confirmedAfterSlots,
    finalizedAfterSlots: options.finalizedAfterSlots,
    now,
  });
  const accounts = Array.from({ length: accountCount }, (_, i) => devnetSolanaKeypair(`account ${i + 1}`));
  const solver = devnetSolanaKeypair("solver");
  const depository = devnetSolanaKeypair("depository");
  const { mint } = solanaGenesis(ledger, {
    mint: devnetSolanaKeypair("usdc mint"),
    mintAuthority: devnetSolanaKeypair("usdc mint authority"),
    holders: [
      ...accounts.map((a) => ({
        owner: a.publicKey,
        lamports: devnetSolanaAccountLamports,
        tokens: devnetSolanaAccountUsdc,
      })),
      { owner: solver.publicKey, lamports: devnetSolanaSolverLamports, tokens: devnetSolanaSolverUsdc },
      { owner: depository.publicKey, lamports: devnetSolanaDepositoryLamports, tokens: 0n },
    ],
  });
  // Genesis is slot 0, rooted at once; what clients send lands from slot 1 on.
  ledger.advance();
  const server = await serveSolanaRpc(ledger, { port });
  const timer = slotMs > 0 ? setInterval(() => ledger.advance(), slotMs) : undefined;
  return {
    rpcUrl: server.rpcUrl,
    wsUrl: server.wsUrl,
    port: server.port,
    slotMs,
    usdcMint: mint,
    accounts,
    solver,
    depository,
    ledger,
    advance: (count = 1) => ledger.advance(count),
    async stop() {
      clearInterval(timer);
      await server.close();
    },
  };
}
