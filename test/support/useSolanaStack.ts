import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import { type Commitment, Connection, PublicKey } from "@solana/web3.js";
import { afterAll, beforeAll } from "vitest";
import { type TestStack, startTestStack } from "./startTestStack.js";

/**
 * The whole stack with the devnet Solana (its funded accounts, solver and depository) for the calling describe block:
 * started before its tests, stopped after them; a Connection to the devnet and balance reads at `commitment`
 * (default "confirmed"; "processed" sees a landed payment before the pollers do).
 */
export function useSolanaStack(
  options: Omit<Parameters<typeof startTestStack>[0] & object, "solana"> = {},
  { commitment = "confirmed" as Commitment } = {},
) {
  let stack: TestStack | undefined;
  let connection: Connection | undefined;
  beforeAll(async () => {
    stack = await startTestStack({ ...options, solana: true });
    connection = new Connection(stack.solana!.devnet.rpcUrl, "confirmed");
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  });
  const ready = <T>(value: T | undefined) => {
    if (!value) throw new Error("the Solana stack is ready only inside tests and hooks");
    return value;
  };
  const key = (owner: PublicKey | string) => (typeof owner === "string" ? new PublicKey(owner) : owner);
  return {
    stack: () => ready(stack),
    connection: () => ready(connection),
    solana: () => ready(stack).solana!,
    /** The owner's lamports. */
    lamports: async (owner: PublicKey | string) => BigInt(await ready(connection).getBalance(key(owner), commitment)),
    /** The owner's devnet USDC in its associated token account (0 without one), in the mint's units. */
    tokens: async (owner: PublicKey | string) => {
      const mint = new PublicKey(ready(stack).solana!.devnet.usdcMint);
      const account = await ready(connection).getAccountInfo(
        getAssociatedTokenAddressSync(mint, key(owner)),
        commitment,
      );
      return account ? Buffer.from(account.data).readBigUInt64LE(64) : 0n;
    },
  };
}
