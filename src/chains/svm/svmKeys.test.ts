import { Keypair } from "@solana/web3.js";
import bs58 from "bs58";
import { describe, expect, it } from "vitest";
import { svmKeySchema } from "./svmKeys.js";

describe("svmKeySchema", () => {
  it("reads the solver's and the depository's base58 secret keys, both optional", () => {
    const solver = bs58.encode(Keypair.generate().secretKey);
    expect(svmKeySchema.parse({ SOLANA_SOLVER_SECRET_KEY: solver })).toEqual({
      solverSecretKey: solver,
      depositorySecretKey: undefined,
    });
    expect(svmKeySchema.parse({})).toEqual({ solverSecretKey: undefined, depositorySecretKey: undefined });
  });

  it("refuses a key that is not 64 bytes of base58, naming the variable and not the value", () => {
    const publicKey = Keypair.generate().publicKey.toBase58();
    const parsed = svmKeySchema.safeParse({ SOLANA_DEPOSITORY_SECRET_KEY: publicKey });
    expect(parsed.success).toBe(false);
    const message = JSON.stringify(parsed.error?.issues);
    expect(message).toContain("SOLANA_DEPOSITORY_SECRET_KEY");
    expect(message).not.toContain(publicKey);
  });
});
