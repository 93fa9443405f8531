import { PublicKey } from "@solana/web3.js";

export const tokenProgramId = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
export const token2022ProgramId = "TokenzQdBNbLqP5VEhdkAbS1ZmzXiWqrQwXm1GvaZtH";
/** A token account's base size; Token-2022 accounts may carry extensions after it. */
export const tokenAccountSize = 165;
export const mintSize = 82;

/** The fields of an SPL token account the RPC reports (balances, parsed account data). */
export type TokenAccountState = {
  mint: string;
  owner: string;
  amount: bigint;
  delegate: string | null;
  state: "uninitialized" | "initialized" | "frozen";
  isNative: boolean;
};

export type MintState = {
  decimals: number;
  supply: bigint;
  mintAuthority: string | null;
  freezeAuthority: string | null;
};

export function isTokenProgram(owner: string): boolean {
  return owner === tokenProgramId || owner === token2022ProgramId;
}

/** Decodes an SPL token account (Token or Token-2022 layout); null when the data is not one. */
export function decodeTokenAccount(owner: string, data: Uint8Array): TokenAccountState | null {
  if (!isTokenProgram(owner) || data.length < tokenAccountSize) return null;
  // Token-2022 marks the account type at byte 165 when extensions follow; a plain 165-byte account is an account.
  if (data.length > tokenAccountSize && data[tokenAccountSize] !== 2) return null;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const stateByte = data[108];
  if (stateByte === 0) return null;
  return {
    mint: new PublicKey(data.subarray(0, 32)).toBase58(),
    owner: new PublicKey(data.subarray(32, 64)).toBase58(),
    amount: view.getBigUint64(64, true),
    delegate: view.getUint32(72, true) === 1 ? new PublicKey(data.subarray(76, 108)).toBase58() : null,
    state: stateByte === 2 ? "frozen" : "initialized",
    isNative: view.getUint32(109, true) === 1,
  };
}

/** Decodes an SPL mint; null when the data is not an initialised mint. */
export function decodeMint(owner: string, data: Uint8Array): MintState | null {
  if (!isTokenProgram(owner) || data.length < mintSize || data.length === tokenAccountSize) return null;
  if (data.length > tokenAccountSize && data[tokenAccountSize] !== 1) return null;
  if (data[45] !== 1) return null;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const optionalKey = (tagAt: number, keyAt: number) =>
    view.getUint32(tagAt, true) === 1 ? new PublicKey(data.subarray(keyAt, keyAt + 32)).toBase58() : null;
  return {
    mintAuthority: optionalKey(0, 4),
    supply: view.getBigUint64(36, true),
    decimals: data[44],
    freezeAuthority: optionalKey(46, 50),
  };
}

/** `uiTokenAmount` as the RPC shows it: the raw amount as a string, and the decimal forms. */
export function uiTokenAmount(amount: bigint, decimals: number) {
  const uiAmountString = decimalString(amount, decimals);
  return { amount: amount.toString(), decimals, uiAmount: Number(uiAmountString), uiAmountString };
}

function decimalString(amount: bigint, decimals: number): string {
  if (decimals === 0) return amount.toString();
  const digits = amount.toString().padStart(decimals + 1, "0");
  const fraction = digits.slice(-decimals).replace(/0+$/, "");
  const whole = digits.slice(0, -decimals);
  return fraction ? `${whole}.${fraction}` : whole;
}
