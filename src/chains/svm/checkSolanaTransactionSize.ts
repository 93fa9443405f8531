import type { MessageV0 } from "@solana/web3.js";
import { InvalidInputError } from "../../domain/errors.js";
import { SOLANA_MAX_TRANSACTION_SIZE, solanaTransactionSize } from "./solanaTransactionSize.js";

/**
 * The wire size of a deposit transaction of `message`, or the spec's 400 SOLANA_TX_TOO_LARGE (the measured size and
 * the overage in its message) when it would not fit a Solana packet: no wallet could send it.
 */
export function checkSolanaTransactionSize(message: MessageV0): number {
  const size = solanaTransactionSize(message);
  if (size > SOLANA_MAX_TRANSACTION_SIZE)
    throw new InvalidInputError(
      "SOLANA_TX_TOO_LARGE",
      `the deposit transaction takes ${size} bytes, ${size - SOLANA_MAX_TRANSACTION_SIZE} over Solana's limit of ${SOLANA_MAX_TRANSACTION_SIZE}`,
      { size, limit: SOLANA_MAX_TRANSACTION_SIZE },
    );
  return size;
}
