import { PublicKey } from "@solana/web3.js";
import bs58 from "bs58";
import { memoProgramIds, memoText } from "./agaveMemo.js";
import { token2022ProgramId, tokenProgramId, uiTokenAmount } from "./tokenAccountState.js";

const systemProgramId = "11111111111111111111111111111111";
const associatedTokenProgramId = "ATokenGPvbdGVxr1b2hvZbsiqW5xWrc5ptdmxmWmctJA";

/** An instruction as `jsonParsed` shows it: parsed for the programs the RPC knows, else partially decoded. */
export type ParsedInstructionJson =
  | { program: string; programId: string; parsed: unknown; stackHeight: number | null }
  | { programId: string; accounts: string[]; data: string; stackHeight: number | null };

/**
 * Parses an instruction the way Agave's `jsonParsed` encoding does for System transfers and account creation,
 * the SPL Token transfers, mints and closes, Associated Token Account creation and Memo; any other instruction
 * (or one these parsers do not cover) is shown partially decoded, as Agave does.
 */
export function parsedInstruction(
  programId: string,
  accounts: string[],
  data: Uint8Array,
  stackHeight: number | null,
): ParsedInstructionJson {
  const parsed = parse(programId, accounts, data);
  if (parsed) return { ...parsed, programId, stackHeight };
  return { programId, accounts, data: bs58.encode(data), stackHeight };
}

function parse(programId: string, a: string[], data: Uint8Array): { program: string; parsed: unknown } | null {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (memoProgramIds.includes(programId)) return { program: "spl-memo", parsed: memoText(data) };
  if (programId === systemProgramId && data.length >= 4) {
    const tag = view.getUint32(0, true);
    if (tag === 2 && data.length >= 12)
      return {
        program: "system",
        parsed: {
          type: "transfer",
          info: { source: a[0], destination: a[1], lamports: Number(view.getBigUint64(4, true)) },
        },
      };
    if (tag === 0 && data.length >= 52)
      return {
        program: "system",
        parsed: {
          type: "createAccount",
          info: {
            source: a[0],
            newAccount: a[1],
            lamports: Number(view.getBigUint64(4, true)),
            space: Number(view.getBigUint64(12, true)),
            owner: new PublicKey(data.subarray(20, 52)).toBase58(),
          },
        },
      };
    return null;
  }
  if (programId === associatedTokenProgramId && data.length <= 1) {
    const type = data.length === 0 || data[0] === 0 ? "create" : data[0] === 1 ? "createIdempotent" : null;
    if (!type) return null;
    return {
      program: "spl-associated-token-account",
      parsed: {
        type,
        info: { source: a[0], account: a[1], wallet: a[2], mint: a[3], systemProgram: a[4], tokenProgram: a[5] },
      },
    };
  }
  if ((programId === tokenProgramId || programId === token2022ProgramId) && data.length >= 1) {
    const program = programId === tokenProgramId ? "spl-token" : "spl-token-2022";
    const amount = data.length >= 9 ? view.getBigUint64(1, true) : 0n;
    switch (data[0]) {
      case 3:
        return {
          program,
          parsed: {
            type: "transfer",
            info: { source: a[0], destination: a[1], authority: a[2], amount: amount.toString() },
          },
        };
      case 12:
        return {
          program,
          parsed: {
            type: "transferChecked",
            info: {
              source: a[0],
              mint: a[1],
              destination: a[2],
              authority: a[3],
              tokenAmount: uiTokenAmount(amount, data[9]),
            },
          },
        };
      case 7:
        return {
          program,
          parsed: {
            type: "mintTo",
            info: { mint: a[0], account: a[1], mintAuthority: a[2], amount: amount.toString() },
          },
        };
      case 14:
        return {
          program,
          parsed: {
            type: "mintToChecked",
            info: { mint: a[0], account: a[1], mintAuthority: a[2], tokenAmount: uiTokenAmount(amount, data[9]) },
          },
        };
      case 9:
        return { program, parsed: { type: "closeAccount", info: { account: a[0], destination: a[1], owner: a[2] } } };
      case 18:
        return {
          program,
          parsed: {
            type: "initializeAccount3",
            info: { account: a[0], mint: a[1], owner: new PublicKey(data.subarray(1, 33)).toBase58() },
          },
        };
      case 22:
        return { program, parsed: { type: "initializeImmutableOwner", info: { account: a[0] } } };
      default:
        return null;
    }
  }
  return null;
}
