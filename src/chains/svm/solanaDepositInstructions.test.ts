import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import { PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { MEMO_PROGRAM_ID } from "./memoInstruction.js";
import { solanaDepositInstructions } from "./solanaDepositInstructions.js";
import { SOLANA_NATIVE_CURRENCY } from "./svmFamily.js";

const user = "HN7cABqLq46Es1jh92dQQisAq662SmxELLLsHHe4YWrH";
const depository = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
const mint = "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU";
const orderId = `0x${"56".repeat(32)}`;
const base = { user, depository, amount: 1_500n, orderId, depositoryTokenAccountExists: true };
const ata = (owner: string) =>
  getAssociatedTokenAddressSync(new PublicKey(mint), new PublicKey(owner), true).toBase58();

describe("solanaDepositInstructions", () => {
  it("pays SOL with a System transfer to the depository, signed by the user, then the memo", () => {
    const [transfer, memo] = solanaDepositInstructions({
      ...base,
      currency: { address: SOLANA_NATIVE_CURRENCY, decimals: 9 },
    });
    expect(transfer!.programId.toBase58()).toBe(SOLANA_NATIVE_CURRENCY);
    expect(transfer!.keys.map((key) => [key.pubkey.toBase58(), key.isSigner, key.isWritable])).toEqual([
      [user, true, true],
      [depository, false, true],
    ]);
    expect(transfer!.data.readBigUInt64LE(4)).toBe(1_500n);
    expect(memo!.programId.toBase58()).toBe(MEMO_PROGRAM_ID);
    expect(memo!.data.toString()).toBe(orderId);
  });

  it("pays a token with transferChecked between the associated token accounts, creating the depository's if missing", () => {
    const token = { ...base, currency: { address: mint, decimals: 6 } };
    const [transfer] = solanaDepositInstructions(token);
    expect(transfer!.keys.map((key) => key.pubkey.toBase58())).toEqual([ata(user), mint, ata(depository), user]);
    expect(transfer!.data[0]).toBe(12);
    expect(transfer!.data[9]).toBe(6);
    const created = solanaDepositInstructions({ ...token, depositoryTokenAccountExists: false });
    expect(created).toHaveLength(3);
    expect(created[0]!.keys[1]!.pubkey.toBase58()).toBe(ata(depository));
  });

  it("has a depositFeePayer fund the depository's new token account, the user still the transfer's only authority", () => {
    const payer = "GdJCc3t6rd4nmgqHkVZNg3DPtYcPntY1fH4VEH9V8iVT";
    const [create, transfer] = solanaDepositInstructions({
      ...base,
      currency: { address: mint, decimals: 6 },
      depositoryTokenAccountExists: false,
      payer,
    });
    expect(create!.keys[0]!.pubkey.toBase58()).toBe(payer);
    expect(create!.keys[0]!.isSigner).toBe(true);
    expect(transfer!.keys.filter((key) => key.isSigner).map((key) => key.pubkey.toBase58())).toEqual([user]);
    const [sol] = solanaDepositInstructions({
      ...base,
      currency: { address: SOLANA_NATIVE_CURRENCY, decimals: 9 },
      payer,
    });
    expect(sol!.keys[0]!.pubkey.toBase58()).toBe(user);
  });
});
