import bs58 from "bs58";
import { parsedInstruction } from "./parsedInstruction.js";
import { SolanaRpcError } from "./SolanaRpcError.js";
import type { InnerInstructionRecord, LandedTransaction, TokenBalance } from "./svmLedger.js";
import { uiTokenAmount } from "./tokenAccountState.js";

/** `getTransaction`'s result in the `json` or `jsonParsed` encoding, as Agave builds it. */
export function transactionJson(
  tx: LandedTransaction,
  { encoding = "json", maxSupportedTransactionVersion }: { encoding?: string; maxSupportedTransactionVersion?: number },
) {
  const { message } = tx.transaction;
  const version = message.version;
  if (version === 0 && maxSupportedTransactionVersion === undefined)
    throw new SolanaRpcError(
      -32015,
      'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
    );
  const keys = tx.accountKeys.map((k) => k.toBase58());
  const lookups =
    version === 0
      ? {
          addressTableLookups: message.addressTableLookups.map((l) => ({
            accountKey: l.accountKey.toBase58(),
            writableIndexes: [...l.writableIndexes],
            readonlyIndexes: [...l.readonlyIndexes],
          })),
        }
      : {};
  let transaction: unknown;
  let innerInstructions: unknown;
  if (encoding === "json") {
    transaction = {
      signatures: tx.transaction.signatures.map((s) => bs58.encode(s)),
      message: {
        accountKeys: message.staticAccountKeys.map((k) => k.toBase58()),
        header: message.header,
        recentBlockhash: message.recentBlockhash,
        instructions: message.compiledInstructions.map((ix) => ({
          programIdIndex: ix.programIdIndex,
          accounts: ix.accountKeyIndexes,
          data: bs58.encode(ix.data),
          stackHeight: null,
        })),
        ...lookups,
      },
    };
    innerInstructions = tx.innerInstructions.map((group) => ({
      index: group.index,
      instructions: group.instructions.map((ix) => ({ ...ix, data: bs58.encode(ix.data) })),
    }));
  } else if (encoding === "jsonParsed") {
    const staticCount = message.staticAccountKeys.length;
    const parse = (ix: { programIdIndex: number; accounts: number[]; data: Uint8Array }, stackHeight: number | null) =>
      parsedInstruction(
        keys[ix.programIdIndex],
        ix.accounts.map((i) => keys[i]),
        ix.data,
        stackHeight,
      );
    transaction = {
      signatures: tx.transaction.signatures.map((s) => bs58.encode(s)),
      message: {
        accountKeys: keys.map((pubkey, i) => ({
          pubkey,
          signer: i < message.header.numRequiredSignatures,
          writable: message.isAccountWritable(i),
          source: i < staticCount ? "transaction" : "lookupTable",
        })),
        recentBlockhash: message.recentBlockhash,
        instructions: message.compiledInstructions.map((ix) =>
          parse({ programIdIndex: ix.programIdIndex, accounts: ix.accountKeyIndexes, data: ix.data }, null),
        ),
        ...lookups,
      },
    };
    innerInstructions = tx.innerInstructions.map((group) => ({
      index: group.index,
      instructions: group.instructions.map((ix: InnerInstructionRecord) => parse(ix, ix.stackHeight)),
    }));
  } else throw SolanaRpcError.invalidParams(`Invalid params: unsupported encoding ${encoding}`);

  const err = tx.err?.json ?? null;
  return {
    slot: tx.slot,
    blockTime: tx.blockTime,
    version: version === "legacy" ? "legacy" : 0,
    transaction,
    meta: {
      err,
      status: err === null ? { Ok: null } : { Err: err },
      fee: Number(tx.fee),
      preBalances: tx.preBalances.map(Number),
      postBalances: tx.postBalances.map(Number),
      innerInstructions,
      logMessages: tx.logs,
      preTokenBalances: tx.preTokenBalances.map(tokenBalanceJson),
      postTokenBalances: tx.postTokenBalances.map(tokenBalanceJson),
      rewards: [],
      loadedAddresses: tx.loadedAddresses,
      computeUnitsConsumed: Number(tx.computeUnitsConsumed),
      ...(tx.returnData
        ? {
            returnData: {
              programId: tx.returnData.programId,
              data: [Buffer.from(tx.returnData.data).toString("base64"), "base64"],
            },
          }
        : {}),
    },
  };
}

function tokenBalanceJson(balance: TokenBalance) {
  return {
    accountIndex: balance.accountIndex,
    mint: balance.mint,
    owner: balance.owner,
    programId: balance.programId,
    uiTokenAmount: uiTokenAmount(balance.amount, balance.decimals),
  };
}
