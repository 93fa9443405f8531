import { getFillAttempt } from "../schema/fillAttempts.js";
import { fillLedgerIn } from "../schema/fillLedger.js";
import { lockFillSigning } from "../schema/lockFillSigning.js";
import { type StoredRequest, getRequest } from "../schema/requests.js";
import { drawSponsorship } from "../schema/sponsorLedger.js";
import { withTransaction } from "../schema/withTransaction.js";
import type { PreparedTransaction, SolverPort } from "../src/chains/adapter.js";
import type { StoredFillAttempt } from "../src/chains/fillLedger.js";
import { failFill } from "./failFill.js";
import type { FillContext } from "./fillDeps.js";

/** What a sponsored quote keeps for its draw (src/quote/createQuote.ts): USD micro-units, and the input-currency payment. */
type QuotedSponsor = {
  integrator: string;
  amountMicroUsd: string;
  payment?: { chainId: number; currency: string; amount: string; components: Record<string, string> };
};

/**
 * Signs the fill and stores it before anything is broadcast, in one transaction under the request's signing lock
 * (and the nonce or wallet lock the adapter takes through the ledger), with the sponsor's draw. Returns the stored
 * fill — another run's, when one was stored first — or undefined when the request is no longer pending, or the job's
 * result when the sponsor can no longer pay (the request failed).
 */
export async function signAndStoreFill(
  context: FillContext,
  request: StoredRequest,
  chain: SolverPort,
  transaction: PreparedTransaction,
  amountOut: bigint,
): Promise<StoredFillAttempt | undefined | string> {
  const sponsor = (request.quote as { sponsor?: QuotedSponsor } | null)?.sponsor;
  const signing = await withTransaction(context.pool, async (db) => {
    // Serialises signing per request across replicas; the nonce row lock serialises nonces per chain.
    await lockFillSigning(db, request.id);
    const existing = await getFillAttempt(db, request.id);
    if (existing) return existing;
    // Failed meanwhile (a refund may be on its way): never sign a fill for it.
    const current = await getRequest(db, request.id, { forUpdate: true });
    if (current?.status !== "pending") return undefined;
    // The sponsor pays its share of the fees with the fill, in this transaction: no draw without a fill.
    if (sponsor) {
      const { payment } = sponsor;
      const draw = {
        integrator: sponsor.integrator,
        requestId: request.id,
        amountMicroUsd: BigInt(sponsor.amountMicroUsd),
        // Quotes made before payments were kept carry none.
        ...(payment && {
          payment: {
            chainId: payment.chainId,
            currency: payment.currency,
            amount: BigInt(payment.amount),
            components: Object.fromEntries(
              Object.entries(payment.components).map(([name, amount]) => [name, BigInt(amount)]),
            ),
          },
        }),
      };
      if (!(await drawSponsorship(db, draw))) return "sponsor balance too low" as const;
    }
    // Stored before it is broadcast, in the transaction that holds the nonce or wallet lock it was signed under.
    const ledger = fillLedgerIn(db);
    const signed = await chain.signTransaction(ledger, transaction);
    await ledger.storeFill({
      requestId: request.id,
      chainId: chain.chain.id,
      solver: chain.solverAddress,
      nonce: signed.nonce,
      txHash: signed.txHash,
      rawTx: signed.rawTx,
      currency: request.destinationCurrency,
      amount: amountOut,
      recipient: request.recipient,
    });
    return getFillAttempt(db, request.id);
  });
  if (signing === "sponsor balance too low") {
    return failFill(
      context,
      request,
      "SPONSOR_BALANCE_TOO_LOW",
      {
        message: `the sponsor ${sponsor!.integrator} can no longer cover the ${sponsor!.amountMicroUsd} USD micro-units of fees it sponsored`,
      },
      { sent: false },
    );
  }
  return signing;
}
