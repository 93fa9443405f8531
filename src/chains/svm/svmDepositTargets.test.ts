import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import { PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { svmChainConfigSchema } from "./svmChainFamily.js";
import { svmDepositTargets } from "./svmDepositTargets.js";
import { SOLANA_NATIVE_CURRENCY } from "./svmFamily.js";

const USDC = "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU";
const depository = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";

describe("svmDepositTargets", () => {
  it("is the depository and its associated token account of each listed mint, not of native SOL", () => {
    const chain = svmChainConfigSchema.parse({
      id: 792703809,
      vmType: "svm",
      name: "solana",
      rpcUrl: "http://127.0.0.1:8899",
      depository,
      currencies: [
        { symbol: "SOL", address: SOLANA_NATIVE_CURRENCY, decimals: 9 },
        { symbol: "USDC", address: USDC, decimals: 6 },
      ],
    });
    const account = getAssociatedTokenAddressSync(new PublicKey(USDC), new PublicKey(depository), true).toBase58();
    expect(svmDepositTargets(chain)).toEqual({ depository, tokenAccounts: new Map([[account, USDC]]) });
  });
});
