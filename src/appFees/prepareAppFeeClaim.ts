import { randomBytes } from "node:crypto";
import type { Address, Hex } from "viem";
import { appFeeBalances } from "../../schema/appFeeClaims.js";
import type { Queryable } from "../../schema/queryable.js";
import type { ChainRegistry, Currency } from "../chains/chainRegistry.js";
import { parseEvmAddress } from "./parseEvmAddress.js";
import { type AppFeeClaimMessage, appFeeClaimTypedData } from "../domain/appFeeClaimTypedData.js";
import { InvalidInputError } from "../domain/errors.js";
import { formatAmount } from "../domain/money.js";

export type AppFeeClaimInput = {
  wallet: string;
  chainId: number;
  currency: string;
  recipient?: string;
  amount?: bigint;
};

// Long enough to sign in a wallet, short enough that an unused signature soon claims nothing.
export const CLAIM_SIGNATURE_TTL_SECONDS = 600;

/** The claim's chain and currency as the registry knows them; earnings exist only where quotes take deposits. */
export function claimCurrency(registry: ChainRegistry, chainId: number, currency: string): Currency {
  const chain = registry.chain(chainId);
  if (!chain || !registry.family(chain).capabilities(chain).appFees)
    throw new InvalidInputError("UNSUPPORTED_CHAIN", `chain ${chainId} holds no app fees`);
  const found = registry.currency(chainId, currency);
  if (!found)
    throw new InvalidInputError("UNSUPPORTED_CURRENCY", `currency ${currency} is not supported on chain ${chainId}`);
  return found;
}

/** The claim's JSON-safe message (uint256 as decimal strings), as the step shows it and the execute body echoes it. */
export function claimMessageJson(message: AppFeeClaimMessage) {
  return {
    id: message.id,
    wallet: message.wallet,
    chainId: message.chainId.toString(),
    currency: message.currency,
    recipient: message.recipient,
    amount: message.amount.toString(),
    deadline: message.deadline.toString(),
  };
}

/**
 * POST /app-fees/{wallet}/claim: checks the amount against the wallet's unclaimed balance (the whole balance when
 * none is given) and answers the one `signature` step that authorises the payout. Nothing is written: the claim
 * exists once the signed step is posted back (executeAppFeeClaim).
 */
export async function prepareAppFeeClaim(
  db: Queryable,
  registry: ChainRegistry,
  input: AppFeeClaimInput,
  now = Date.now(),
) {
  const wallet = parseEvmAddress(input.wallet, "wallet");
  const recipient = parseEvmAddress(input.recipient ?? input.wallet, "recipient");
  const currency = claimCurrency(registry, input.chainId, input.currency);
  const balance =
    (await appFeeBalances(db, wallet)).find(
      (row) => row.chainId === currency.chainId && row.currency === currency.address.toLowerCase(),
    )?.amount ?? 0n;
  const amount = input.amount ?? balance;
  if (amount <= 0n || amount > balance) {
    throw new InvalidInputError(
      "INSUFFICIENT_FUNDS",
      `amount: ${wallet} can claim ${formatAmount(balance, currency.decimals)} ${currency.symbol} on chain ${currency.chainId}${amount > 0n ? `, not ${formatAmount(amount, currency.decimals)}` : ""}`,
    );
  }
  const message: AppFeeClaimMessage = {
    id: `0x${randomBytes(32).toString("hex")}` as Hex,
    wallet,
    chainId: BigInt(currency.chainId),
    currency: currency.address as Address,
    recipient,
    amount,
    deadline: BigInt(Math.floor(now / 1000) + CLAIM_SIGNATURE_TTL_SECONDS),
  };
  const typedData = appFeeClaimTypedData(message);
  const value = claimMessageJson(message);
  return {
    steps: [
      {
        id: "claim",
        action: "Confirm claim",
        description: `Sign to claim ${formatAmount(amount, currency.decimals)} ${currency.symbol} of app fees to ${recipient}`,
        kind: "signature",
        requestId: message.id,
        depositAddress: "",
        items: [
          {
            status: "incomplete",
            data: {
              sign: {
                signatureKind: "eip712",
                domain: typedData.domain,
                types: typedData.types,
                primaryType: typedData.primaryType,
                value,
              },
              post: { endpoint: `/app-fees/${wallet}/claim/execute`, method: "POST", body: value },
            },
          },
        ],
      },
    ],
  };
}
