import bs58 from "bs58";
import type { AccountState } from "./svmLedger.js";
import { decodeMint, decodeTokenAccount, isTokenProgram, tokenProgramId, uiTokenAmount } from "./tokenAccountState.js";
import { SolanaRpcError } from "./SolanaRpcError.js";

/** Agave reports every account as rent-exempt with this rent epoch (u64::MAX). */
const rentExemptEpoch = 18446744073709551615;

export type AccountEncoding = "base64" | "base58" | "jsonParsed";

/** `getAccountInfo`'s `value` for one account in the requested encoding (null when it does not exist). */
export function accountJson(
  state: AccountState,
  {
    encoding = "base58",
    dataSlice,
    mintDecimals,
  }: {
    encoding?: string;
    dataSlice?: { offset: number; length: number };
    mintDecimals: (mint: string) => number | undefined;
  },
) {
  if (!state) return null;
  if (encoding !== "base64" && encoding !== "base58" && encoding !== "jsonParsed")
    throw SolanaRpcError.invalidParams(`Invalid params: unsupported encoding ${encoding}`);
  const data = dataSlice ? state.data.subarray(dataSlice.offset, dataSlice.offset + dataSlice.length) : state.data;
  const base = {
    lamports: Number(state.lamports),
    owner: state.owner,
    executable: state.executable,
    rentEpoch: rentExemptEpoch,
    space: state.data.length,
  };
  if (encoding === "jsonParsed" && !dataSlice) {
    const parsed = isTokenProgram(state.owner) ? parsedTokenData(state, mintDecimals) : null;
    // What the parsers do not know stays base64, as Agave falls back.
    return { ...base, data: parsed ?? [Buffer.from(data).toString("base64"), "base64"] };
  }
  if (encoding === "base58") {
    if (data.length > 128)
      throw SolanaRpcError.invalidParams(
        "Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.",
      );
    return { ...base, data: [bs58.encode(data), "base58"] };
  }
  return { ...base, data: [Buffer.from(data).toString("base64"), "base64"] };
}

/** Token account and mint data as `jsonParsed` shows it. */
function parsedTokenData(state: NonNullable<AccountState>, mintDecimals: (mint: string) => number | undefined) {
  const program = state.owner === tokenProgramId ? "spl-token" : "spl-token-2022";
  const mint = decodeMint(state.owner, state.data);
  if (mint)
    return {
      program,
      parsed: {
        type: "mint",
        info: {
          decimals: mint.decimals,
          freezeAuthority: mint.freezeAuthority,
          isInitialized: true,
          mintAuthority: mint.mintAuthority,
          supply: mint.supply.toString(),
        },
      },
      space: state.data.length,
    };
  const account = decodeTokenAccount(state.owner, state.data);
  const decimals = account ? mintDecimals(account.mint) : undefined;
  if (!account || decimals === undefined) return null;
  return {
    program,
    parsed: {
      type: "account",
      info: {
        isNative: account.isNative,
        mint: account.mint,
        owner: account.owner,
        state: account.state,
        tokenAmount: uiTokenAmount(account.amount, decimals),
        ...(account.delegate ? { delegate: account.delegate } : {}),
      },
    },
    space: state.data.length,
  };
}
