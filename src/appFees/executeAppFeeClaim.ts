import type pg from "pg";
import type { Address, Hex } from "viem";
import { type AppFeeClaim, getAppFeeClaim, writeAppFeeClaim } from "../../schema/appFeeClaims.js";
import { withTransaction } from "../../schema/withTransaction.js";
import { recoverTypedDataSigner } from "../chains/evm/recoverTypedDataSigner.js";
import type { ChainRegistry } from "../chains/chainRegistry.js";
import { type AppFeeClaimMessage, appFeeClaimTypedData } from "../domain/appFeeClaimTypedData.js";
import { InvalidInputError } from "../domain/errors.js";
import { formatAmount } from "../domain/money.js";
import { claimCurrency } from "./prepareAppFeeClaim.js";

/**
 * The claim step posted back with the wallet's signature: the signer must be the wallet the fees were earned by
 * (the path's), the deadline not passed, and the balance must still cover it. Written once per id, so the same
 * signature posted again answers the claim it made and pays nothing more; the worker pays it out.
 */
export async function executeAppFeeClaim(
  pool: pg.Pool,
  registry: ChainRegistry,
  input: { pathWallet: string; message: AppFeeClaimMessage; signature: Hex },
  now = Date.now(),
): Promise<{ claim: AppFeeClaim; created: boolean }> {
  const { message, signature } = input;
  if (message.wallet.toLowerCase() !== input.pathWallet.toLowerCase())
    throw new InvalidInputError("INVALID_INPUT", `wallet: the claim is for ${message.wallet}, not ${input.pathWallet}`);
  const currency = claimCurrency(registry, Number(message.chainId), message.currency);
  let signer: string;
  try {
    signer = await recoverTypedDataSigner(appFeeClaimTypedData(message), signature);
  } catch (cause) {
    throw new InvalidInputError(
      "INVALID_SIGNATURE",
      `signature: not a valid secp256k1 signature (${(cause as Error).message.split("\n")[0]})`,
    );
  }
  if (signer.toLowerCase() !== message.wallet.toLowerCase())
    throw new InvalidInputError("INVALID_SIGNATURE", `signature: signed by ${signer}, not by wallet ${message.wallet}`);
  const existing = await getAppFeeClaim(pool, message.id);
  if (existing) return { claim: existing, created: false };
  if (message.deadline * 1000n < BigInt(now))
    throw new InvalidInputError(
      "INVALID_SIGNATURE",
      "signature: the claim's deadline has passed; ask for a new claim step",
    );

  const written = await withTransaction(pool, (client) =>
    writeAppFeeClaim(client, {
      id: message.id,
      wallet: message.wallet as Address,
      chainId: currency.chainId,
      currency: currency.address,
      recipient: message.recipient,
      amount: message.amount,
      signature,
    }),
  );
  if (!written.written && written.reason === "balance") {
    throw new InvalidInputError(
      "INSUFFICIENT_FUNDS",
      `amount: ${message.wallet} can claim ${formatAmount(written.balance, currency.decimals)} ${currency.symbol} on chain ${currency.chainId} now`,
    );
  }
  const claim = (await getAppFeeClaim(pool, message.id))!;
  return { claim, created: written.written };
}
