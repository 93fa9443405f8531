import type pg from "pg";
import type { FillLedger, FillLedgerTransaction } from "../src/chains/fillLedger.js";
import { insertFillAttempt, recordBroadcastFailure, recordFillCancel, recordFillReplacement } from "./fillAttempts.js";
import { lockSolverWallet } from "./lockSolverWallet.js";
import { recordPayoutCancel } from "./recordPayoutCancel.js";
import { lockNextNonce, saveNextNonce } from "./solverNonces.js";
import { withTransaction } from "./withTransaction.js";

/** The fill ledger inside the caller's open transaction on `db`: its locks last until that transaction ends. */
export function fillLedgerIn(db: pg.PoolClient): FillLedgerTransaction {
  return {
    lockNextNonce: (chainId, solver, chainPending) => lockNextNonce(db, chainId, solver, chainPending),
    saveNextNonce: (chainId, solver, nextNonce) => saveNextNonce(db, chainId, solver, nextNonce),
    lockSolverWallet: (chainId) => lockSolverWallet(db, chainId),
    storeFill: (attempt) => insertFillAttempt(db, attempt),
  };
}

/** The fill ledger over a pool: each record is one statement, a transaction takes a connection of its own. */
export function createFillLedger(pool: pg.Pool): FillLedger {
  return {
    transaction: (work) => withTransaction(pool, (db) => work(fillLedgerIn(db))),
    recordReplacement: (requestId, replaced, next) => recordFillReplacement(pool, requestId, replaced, next),
    recordCancel: (requestId, cancel, replacing) => recordFillCancel(pool, requestId, cancel, replacing),
    recordPayoutCancel: (requestId, cancel) => recordPayoutCancel(pool, requestId, cancel),
    recordBroadcastFailure: (requestId, error) => recordBroadcastFailure(pool, requestId, error),
  };
}
