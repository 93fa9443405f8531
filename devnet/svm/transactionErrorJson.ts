import type { FailedTransactionMetadata } from "litesvm";

/** A transaction error as Solana's RPC serialises it (serde's JSON of `TransactionError`). */
export type TransactionErrorJson = string | Record<string, unknown>;

/** What a failed transaction reads as: the RPC's JSON and the validator's display text. */
export type TransactionErrorInfo = { json: TransactionErrorJson; message: string };

// litesvm exposes these as `const enum`s (numbers at run time); the names and texts are Agave's, in its order.
const transactionErrors: [string, string][] = [
  ["AccountInUse", "Account in use"],
  ["AccountLoadedTwice", "Account loaded twice"],
  ["AccountNotFound", "Attempt to debit an account but found no record of a prior credit."],
  ["ProgramAccountNotFound", "Attempt to load a program that does not exist"],
  ["InsufficientFundsForFee", "Insufficient funds for fee"],
  ["InvalidAccountForFee", "This account may not be used to pay transaction fees"],
  ["AlreadyProcessed", "This transaction has already been processed"],
  ["BlockhashNotFound", "Blockhash not found"],
  ["CallChainTooDeep", "Loader call chain is too deep"],
  ["MissingSignatureForFee", "Transaction requires a fee but has no signature present"],
  ["InvalidAccountIndex", "Transaction contains an invalid account reference"],
  ["SignatureFailure", "Transaction did not pass signature verification"],
  ["InvalidProgramForExecution", "This program may not be used for executing instructions"],
  ["SanitizeFailure", "Transaction failed to sanitize accounts offsets correctly"],
  ["ClusterMaintenance", "Transactions are currently disabled due to cluster maintenance"],
  ["AccountBorrowOutstanding", "Transaction processing left an account with an outstanding borrowed reference"],
  ["WouldExceedMaxBlockCostLimit", "Transaction would exceed max Block Cost Limit"],
  ["UnsupportedVersion", "Transaction version is unsupported"],
  ["InvalidWritableAccount", "Transaction loads a writable account that cannot be written"],
  ["WouldExceedMaxAccountCostLimit", "Transaction would exceed max account limit within the block"],
  ["WouldExceedAccountDataBlockLimit", "Transaction would exceed account data limit within the block"],
  ["TooManyAccountLocks", "Transaction locked too many accounts"],
  ["AddressLookupTableNotFound", "Transaction loads an address table account that doesn't exist"],
  ["InvalidAddressLookupTableOwner", "Transaction loads an address table account with an invalid owner"],
  ["InvalidAddressLookupTableData", "Transaction loads an address table account with invalid data"],
  ["InvalidAddressLookupTableIndex", "Transaction address table lookup uses an invalid index"],
  ["InvalidRentPayingAccount", "Transaction leaves an account with a lower balance than rent-exempt minimum"],
  ["WouldExceedMaxVoteCostLimit", "Transaction would exceed max Vote Cost Limit"],
  ["WouldExceedAccountDataTotalLimit", "Transaction would exceed total account data limit"],
  ["MaxLoadedAccountsDataSizeExceeded", "Transaction exceeded max loaded accounts data size cap"],
  ["ResanitizationNeeded", "ResanitizationNeeded"],
  ["InvalidLoadedAccountsDataSizeLimit", "LoadedAccountsDataSizeLimit set for transaction must be greater than 0."],
  ["UnbalancedTransaction", "Sum of account balances before and after transaction do not match"],
  ["ProgramCacheHitMaxLimit", "Program cache hit max limit"],
  ["CommitCancelled", "CommitCancelled"],
];

const instructionErrors: [string, string][] = [
  ["GenericError", "generic instruction error"],
  ["InvalidArgument", "invalid program argument"],
  ["InvalidInstructionData", "invalid instruction data"],
  ["InvalidAccountData", "invalid account data for instruction"],
  ["AccountDataTooSmall", "account data too small for instruction"],
  ["InsufficientFunds", "insufficient funds for instruction"],
  ["IncorrectProgramId", "incorrect program id for instruction"],
  ["MissingRequiredSignature", "missing required signature for instruction"],
  ["AccountAlreadyInitialized", "instruction requires an uninitialized account"],
  ["UninitializedAccount", "instruction requires an initialized account"],
  ["UnbalancedInstruction", "sum of account balances before and after instruction do not match"],
  ["ModifiedProgramId", "instruction illegally modified the program id of an account"],
  ["ExternalAccountLamportSpend", "instruction spent from the balance of an account it does not own"],
  ["ExternalAccountDataModified", "instruction modified data of an account it does not own"],
  ["ReadonlyLamportChange", "instruction changed the balance of a read-only account"],
  ["ReadonlyDataModified", "instruction modified data of a read-only account"],
  ["DuplicateAccountIndex", "instruction contains duplicate accounts"],
  ["ExecutableModified", "instruction changed executable bit of an account"],
  ["RentEpochModified", "instruction modified rent epoch of an account"],
  ["NotEnoughAccountKeys", "insufficient account keys for instruction"],
  ["AccountDataSizeChanged", "program other than the account's owner changed the size of the account data"],
  ["AccountNotExecutable", "instruction expected an executable account"],
  ["AccountBorrowFailed", "instruction tries to borrow reference for an account which is already borrowed"],
  ["AccountBorrowOutstanding", "instruction left account with an outstanding borrowed reference"],
  ["DuplicateAccountOutOfSync", "instruction modifications of multiply-passed account differ"],
  ["InvalidError", "program returned invalid error code"],
  ["ExecutableDataModified", "instruction changed executable accounts data"],
  ["ExecutableLamportChange", "instruction changed the balance of an executable account"],
  ["ExecutableAccountNotRentExempt", "executable accounts must be rent exempt"],
  ["UnsupportedProgramId", "Unsupported program id"],
  ["CallDepth", "Cross-program invocation call depth too deep"],
  ["MissingAccount", "An account required by the instruction is missing"],
  ["ReentrancyNotAllowed", "Cross-program invocation reentrancy not allowed for this instruction"],
  ["MaxSeedLengthExceeded", "Length of the seed is too long for address generation"],
  ["InvalidSeeds", "Provided seeds do not result in a valid address"],
  ["InvalidRealloc", "Failed to reallocate account data"],
  ["ComputationalBudgetExceeded", "Computational budget exceeded"],
  ["PrivilegeEscalation", "Cross-program invocation with unauthorized signer or writable account"],
  ["ProgramEnvironmentSetupFailure", "Failed to create program execution environment"],
  ["ProgramFailedToComplete", "Program failed to complete"],
  ["ProgramFailedToCompile", "Program failed to compile"],
  ["Immutable", "Account is immutable"],
  ["IncorrectAuthority", "Incorrect authority provided"],
  ["AccountNotRentExempt", "An account does not have enough lamports to be rent-exempt"],
  ["InvalidAccountOwner", "Invalid account owner"],
  ["ArithmeticOverflow", "Program arithmetic overflowed"],
  ["UnsupportedSysvar", "Unsupported sysvar"],
  ["IllegalOwner", "Provided owner is not allowed"],
  ["MaxAccountsDataAllocationsExceeded", "Accounts data allocations exceeded the maximum allowed per transaction"],
  ["MaxAccountsExceeded", "Max accounts exceeded"],
  ["MaxInstructionTraceLengthExceeded", "Max instruction trace length exceeded"],
  ["BuiltinProgramsMustConsumeComputeUnits", "Builtin programs must consume compute units"],
  ["BorshIoError", "Failed to serialize or deserialize account data"],
];

/** The error of a failed litesvm transaction, as Solana's RPC shows it in `meta.err` and in error messages. */
export function transactionErrorJson(failed: FailedTransactionMetadata): TransactionErrorInfo {
  return describeTransactionError(failed.err());
}

type LiteSvmTransactionError = ReturnType<FailedTransactionMetadata["err"]>;

function describeTransactionError(err: LiteSvmTransactionError): TransactionErrorInfo {
  if (typeof err === "number") {
    const [name, message] = transactionErrors[err] ?? [`TransactionError${err}`, `transaction error ${err}`];
    return { json: name, message };
  }
  const kind = err.constructor.name;
  if (kind === "TransactionErrorInstructionError" && "err" in err) {
    const inner = err.err();
    const index = err.index;
    if (typeof inner === "number") {
      const [name, message] = instructionErrors[inner] ?? [`InstructionError${inner}`, `instruction error ${inner}`];
      return {
        json: { InstructionError: [index, name] },
        message: `Error processing Instruction ${index}: ${message}`,
      };
    }
    if ("code" in inner)
      return {
        json: { InstructionError: [index, { Custom: inner.code }] },
        message: `Error processing Instruction ${index}: custom program error: 0x${inner.code.toString(16)}`,
      };
    return {
      json: { InstructionError: [index, { BorshIoError: inner.msg }] },
      message: `Error processing Instruction ${index}: Failed to serialize or deserialize account data: ${inner.msg}`,
    };
  }
  if (kind === "TransactionErrorDuplicateInstruction" && "index" in err)
    return {
      json: { DuplicateInstruction: err.index },
      message: `Transaction contains a duplicate instruction (${err.index}) that is not allowed`,
    };
  if (kind === "TransactionErrorInsufficientFundsForRent" && "accountIndex" in err)
    return {
      json: { InsufficientFundsForRent: { account_index: err.accountIndex } },
      message: `Transaction results in an account (${err.accountIndex}) with insufficient funds for rent`,
    };
  if ("accountIndex" in err)
    return {
      json: { ProgramExecutionTemporarilyRestricted: { account_index: err.accountIndex } },
      message: `Execution of the program referenced by account at index ${err.accountIndex} is temporarily restricted.`,
    };
  throw new Error(`unknown litesvm transaction error ${String(err)}`);
}

/** A fieldless transaction error the RPC raises itself (before execution), e.g. `BlockhashNotFound`. */
export function fieldlessTransactionError(name: string): TransactionErrorInfo {
  const found = transactionErrors.find(([n]) => n === name);
  if (!found) throw new Error(`unknown transaction error ${name}`);
  return { json: found[0], message: found[1] };
}
