import { PublicKey, VersionedMessage } from "@solana/web3.js";
import bs58 from "bs58";
import { accountJson } from "./accountJson.js";
import { SolanaRpcError } from "./SolanaRpcError.js";
import type { Commitment, LandedTransaction, SubmitOutcome, SvmLedger } from "./svmLedger.js";
import {
  decodeMint,
  decodeTokenAccount,
  token2022ProgramId,
  tokenProgramId,
  uiTokenAmount,
} from "./tokenAccountState.js";
import { transactionJson } from "./transactionJson.js";

/** Solana's packet size: the largest wire transaction (PACKET_DATA_SIZE). */
export const maxTransactionBytes = 1232;
const maxBase64Length = 1644;
const maxBase58Length = 1683;
const versionedTransactionType = "solana_transaction::versioned::VersionedTransaction";

type Params = unknown[];
type Config = {
  commitment?: Commitment;
  encoding?: string;
  minContextSlot?: number;
  dataSlice?: { offset: number; length: number };
  [key: string]: unknown;
};

/**
 * The Solana JSON-RPC methods the devnet serves, over a ledger: each takes the request's `params` and returns
 * its `result` (shapes and errors as Agave's RPC), or throws a SolanaRpcError.
 */
export function solanaRpcMethods(ledger: SvmLedger): Record<string, (params: Params) => unknown> {
  const context = (commitment?: Commitment) => ({ apiVersion: "2.2.0", slot: ledger.slot(commitment) });
  const withContext = (commitment: Commitment | undefined, value: unknown) => ({ context: context(commitment), value });
  const mintDecimals = (mint: string) => {
    const state = ledger.account(mint, "processed");
    return state ? decodeMint(state.owner, state.data)?.decimals : undefined;
  };

  function config(params: Params, index: number): Config {
    const value = params[index];
    if (value === undefined || value === null) return {};
    if (typeof value !== "object") throw SolanaRpcError.invalidParams("Invalid params: invalid type: expected a map.");
    const c = value as Config;
    if (c.commitment !== undefined && !["processed", "confirmed", "finalized"].includes(c.commitment))
      throw SolanaRpcError.invalidParams(`Invalid params: unknown variant \`${c.commitment}\`.`);
    if (c.minContextSlot !== undefined && ledger.slot(c.commitment) < c.minContextSlot)
      throw new SolanaRpcError(-32016, "Minimum context slot has not been reached", {
        contextSlot: ledger.slot(c.commitment),
      });
    return c;
  }

  function pubkey(value: unknown): string {
    if (typeof value !== "string")
      throw SolanaRpcError.invalidParams("Invalid params: invalid type: expected a string.");
    try {
      const bytes = bs58.decode(value);
      if (bytes.length !== 32) throw new Error("WrongSize");
      return new PublicKey(bytes).toBase58();
    } catch {
      throw SolanaRpcError.invalidParams("Invalid param: Invalid");
    }
  }

  function signature(value: unknown): string {
    if (typeof value !== "string")
      throw SolanaRpcError.invalidParams("Invalid params: invalid type: expected a string.");
    let bytes: Uint8Array;
    try {
      bytes = bs58.decode(value);
    } catch {
      throw SolanaRpcError.invalidParams("Invalid param: Invalid");
    }
    if (bytes.length !== 64) throw SolanaRpcError.invalidParams("Invalid param: WrongSize");
    return value;
  }

  function atLeastConfirmed(commitment: Commitment | undefined): Commitment {
    if (commitment === "processed")
      throw SolanaRpcError.invalidParams("Method does not support commitment below `confirmed`");
    return commitment ?? "finalized";
  }

  /** Decodes a wire transaction, refusing what Agave's RPC refuses before deserialising. */
  function wireTransaction(encoded: unknown, encoding = "base58"): Uint8Array {
    if (typeof encoded !== "string")
      throw SolanaRpcError.invalidParams("Invalid params: invalid type: expected a string.");
    if (encoding !== "base58" && encoding !== "base64")
      throw SolanaRpcError.invalidParams(
        `Invalid params: unknown variant \`${encoding}\`, expected \`base58\` or \`base64\`.`,
      );
    const maxEncoded = encoding === "base58" ? maxBase58Length : maxBase64Length;
    if (encoded.length > maxEncoded)
      throw SolanaRpcError.invalidParams(
        `${encoding} encoded ${versionedTransactionType} too large: ${encoded.length} bytes (max: encoded/raw ${maxEncoded}/${maxTransactionBytes})`,
      );
    let wire: Uint8Array;
    try {
      wire = encoding === "base58" ? bs58.decode(encoded) : Buffer.from(encoded, "base64");
    } catch {
      throw SolanaRpcError.invalidParams(`invalid ${encoding} encoding: InvalidByte`);
    }
    if (wire.length > maxTransactionBytes)
      throw SolanaRpcError.invalidParams(
        `decoded ${versionedTransactionType} too large: ${wire.length} bytes (max: ${maxTransactionBytes} bytes)`,
      );
    return wire;
  }

  function deserialisable<T>(run: () => T): T {
    try {
      return run();
    } catch (error) {
      if (error instanceof SolanaRpcError) throw error;
      throw SolanaRpcError.invalidParams(
        `failed to deserialize ${versionedTransactionType}: ${(error as Error).message}`,
      );
    }
  }

  function submitted(outcome: SubmitOutcome): string {
    if (outcome.kind === "signatureFailure")
      throw new SolanaRpcError(-32003, "Transaction signature verification failure");
    if (outcome.kind === "preflightFailure") {
      const { err, logs, unitsConsumed } = outcome.failure;
      throw new SolanaRpcError(-32002, `Transaction simulation failed: ${err.message}`, {
        accounts: null,
        err: err.json,
        innerInstructions: null,
        loadedAccountsDataSize: 0,
        logs,
        replacementBlockhash: null,
        returnData: null,
        unitsConsumed: Number(unitsConsumed),
      });
    }
    return outcome.signature;
  }

  function status(tx: LandedTransaction) {
    const confirmationStatus = ledger.commitmentOf(tx);
    const err = tx.err?.json ?? null;
    return {
      slot: tx.slot,
      confirmations: confirmationStatus === "finalized" ? null : ledger.slot("processed") - tx.slot,
      err,
      status: err === null ? { Ok: null } : { Err: err },
      confirmationStatus,
    };
  }

  function tokenAccount(key: string, commitment?: Commitment) {
    const state = ledger.account(key, commitment);
    if (!state) throw SolanaRpcError.invalidParams("Invalid param: could not find account");
    const token = decodeTokenAccount(state.owner, state.data);
    if (!token) throw SolanaRpcError.invalidParams("Invalid param: not a Token account");
    const decimals = mintDecimals(token.mint);
    if (decimals === undefined) throw SolanaRpcError.invalidParams("Invalid param: could not find mint");
    return { token, decimals };
  }

  return {
    getHealth: () => "ok",
    getVersion: () => ({ "solana-core": "2.2.0", "feature-set": 3294202862 }),
    getSlot: (p) => ledger.slot(config(p, 0).commitment),
    getBlockHeight: (p) => ledger.blockHeight(config(p, 0).commitment),
    getEpochInfo: (p) => {
      const slot = ledger.slot(config(p, 0).commitment);
      return {
        absoluteSlot: slot,
        blockHeight: slot,
        epoch: 0,
        slotIndex: slot,
        slotsInEpoch: 432000,
        transactionCount: null,
      };
    },
    getBlockTime: (p) => {
      const time = ledger.blockTime(Number(p[0]));
      if (time === null) throw new SolanaRpcError(-32004, `Block not available for slot ${Number(p[0])}`);
      return time;
    },
    getLatestBlockhash: (p) => {
      const { commitment } = config(p, 0);
      const { blockhash, lastValidBlockHeight } = ledger.latestBlockhash(commitment);
      return withContext(commitment, { blockhash, lastValidBlockHeight });
    },
    isBlockhashValid: (p) => {
      const { commitment } = config(p, 1);
      if (typeof p[0] !== "string")
        throw SolanaRpcError.invalidParams("Invalid params: invalid type: expected a string.");
      return withContext(commitment, ledger.isBlockhashValid(p[0]));
    },
    getFeeForMessage: (p) => {
      const { commitment } = config(p, 1);
      if (typeof p[0] !== "string")
        throw SolanaRpcError.invalidParams("Invalid params: invalid type: expected a string.");
      const message = deserialisable(() => VersionedMessage.deserialize(Buffer.from(p[0] as string, "base64")));
      const fee = ledger.fee(message);
      return withContext(commitment, fee === null ? null : Number(fee));
    },
    getMinimumBalanceForRentExemption: (p) => Number(ledger.minimumBalanceForRentExemption(Number(p[0] ?? 0))),
    getBalance: (p) => {
      const { commitment } = config(p, 1);
      return withContext(commitment, Number(ledger.account(pubkey(p[0]), commitment)?.lamports ?? 0n));
    },
    getAccountInfo: (p) => {
      const { commitment, encoding, dataSlice } = config(p, 1);
      return withContext(
        commitment,
        accountJson(ledger.account(pubkey(p[0]), commitment), { encoding, dataSlice, mintDecimals }),
      );
    },
    getMultipleAccounts: (p) => {
      const { commitment, encoding, dataSlice } = config(p, 1);
      if (!Array.isArray(p[0]))
        throw SolanaRpcError.invalidParams("Invalid params: invalid type: expected a sequence.");
      if (p[0].length > 100) throw SolanaRpcError.invalidParams("Too many inputs provided; max 100");
      return withContext(
        commitment,
        p[0].map((key) => accountJson(ledger.account(pubkey(key), commitment), { encoding, dataSlice, mintDecimals })),
      );
    },
    getTokenAccountBalance: (p) => {
      const { commitment } = config(p, 1);
      const { token, decimals } = tokenAccount(pubkey(p[0]), commitment);
      return withContext(commitment, uiTokenAmount(token.amount, decimals));
    },
    getTokenAccountsByOwner: (p) => {
      const owner = pubkey(p[0]);
      const filter = (p[1] ?? {}) as { mint?: string; programId?: string };
      const { commitment, encoding, dataSlice } = config(p, 2);
      const mint = filter.mint !== undefined ? pubkey(filter.mint) : undefined;
      const programId = filter.programId !== undefined ? pubkey(filter.programId) : undefined;
      if (!mint && !programId)
        throw SolanaRpcError.invalidParams("Invalid params: expected a mint or programId filter.");
      if (programId && programId !== tokenProgramId && programId !== token2022ProgramId)
        throw SolanaRpcError.invalidParams("Invalid param: unrecognized Token program id");
      const programs = programId ? [programId] : [tokenProgramId, token2022ProgramId];
      const found = programs.flatMap((program) =>
        ledger.programAccounts(program).flatMap((key) => {
          const state = ledger.account(key, commitment);
          const token = state && decodeTokenAccount(state.owner, state.data);
          if (!token || token.owner !== owner || (mint && token.mint !== mint)) return [];
          return [{ pubkey: key, account: accountJson(state, { encoding, dataSlice, mintDecimals }) }];
        }),
      );
      return withContext(commitment, found);
    },
    sendTransaction: (p) => {
      const c = config(p, 1);
      const wire = wireTransaction(p[0], c.encoding);
      return submitted(deserialisable(() => ledger.submit(wire, { skipPreflight: c.skipPreflight === true })));
    },
    simulateTransaction: (p) => {
      const c = config(p, 1);
      const sigVerify = c.sigVerify === true;
      const replaceRecentBlockhash = c.replaceRecentBlockhash === true;
      if (sigVerify && replaceRecentBlockhash)
        throw SolanaRpcError.invalidParams("sigVerify may not be used with replaceRecentBlockhash");
      const wire = wireTransaction(p[0], c.encoding);
      const requested = (c.accounts as { addresses?: string[]; encoding?: string } | undefined) ?? undefined;
      const addresses = (requested?.addresses ?? []).map(pubkey);
      const outcome = deserialisable(() =>
        ledger.simulate(wire, { sigVerify, replaceRecentBlockhash, accounts: addresses }),
      );
      if (outcome === "signatureFailure")
        throw new SolanaRpcError(-32003, "Transaction signature verification failure");
      const latest = ledger.latestBlockhash(c.commitment);
      return withContext(c.commitment, {
        err: outcome.err?.json ?? null,
        logs: outcome.logs,
        accounts:
          requested && outcome.accounts
            ? addresses.map((key) =>
                accountJson(outcome.accounts!.get(key) ?? null, {
                  encoding: requested.encoding ?? "base64",
                  mintDecimals,
                }),
              )
            : null,
        unitsConsumed: Number(outcome.unitsConsumed),
        returnData: outcome.returnData
          ? {
              programId: outcome.returnData.programId,
              data: [Buffer.from(outcome.returnData.data).toString("base64"), "base64"],
            }
          : null,
        innerInstructions:
          c.innerInstructions === true
            ? outcome.innerInstructions.map((g) => ({
                index: g.index,
                instructions: g.instructions.map((ix) => ({ ...ix, data: bs58.encode(ix.data) })),
              }))
            : null,
        replacementBlockhash: replaceRecentBlockhash
          ? { blockhash: latest.blockhash, lastValidBlockHeight: latest.lastValidBlockHeight }
          : null,
      });
    },
    getSignatureStatuses: (p) => {
      if (!Array.isArray(p[0]))
        throw SolanaRpcError.invalidParams("Invalid params: invalid type: expected a sequence.");
      if (p[0].length > 256) throw SolanaRpcError.invalidParams("Too many inputs provided; max 256");
      const statuses = p[0].map((s) => {
        const tx = ledger.transaction(signature(s));
        return tx ? status(tx) : null;
      });
      return withContext("processed", statuses);
    },
    getSignaturesForAddress: (p) => {
      const key = pubkey(p[0]);
      const c = config(p, 1);
      const commitment = atLeastConfirmed(c.commitment);
      const limit = c.limit === undefined ? 1000 : Number(c.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
        throw SolanaRpcError.invalidParams("Invalid limit; max 1000");
      const newestFirst = [...ledger.transactionsOf(key, commitment)].reverse();
      let start = 0;
      if (c.before !== undefined) {
        const at = newestFirst.findIndex((tx) => tx.signature === signature(c.before));
        if (at < 0) return [];
        start = at + 1;
      }
      const untilSignature = c.until === undefined ? undefined : signature(c.until);
      const page: unknown[] = [];
      for (const tx of newestFirst.slice(start)) {
        if (tx.signature === untilSignature || page.length === limit) break;
        page.push({
          signature: tx.signature,
          slot: tx.slot,
          err: tx.err?.json ?? null,
          memo: tx.memo,
          blockTime: tx.blockTime,
          confirmationStatus: ledger.commitmentOf(tx),
        });
      }
      return page;
    },
    getTransaction: (p) => {
      const c = config(p, 1);
      const commitment = atLeastConfirmed(c.commitment);
      const tx = ledger.transaction(signature(p[0]));
      if (!tx || tx.slot > ledger.slot(commitment)) return null;
      return transactionJson(tx, {
        encoding: c.encoding,
        maxSupportedTransactionVersion:
          c.maxSupportedTransactionVersion === undefined ? undefined : Number(c.maxSupportedTransactionVersion),
      });
    },
  };
}
