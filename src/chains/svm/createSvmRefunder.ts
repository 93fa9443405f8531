import type { Keypair } from "@solana/web3.js";
import type { RefundPort } from "../adapter.js";
import { createSvmSolver } from "./createSvmSolver.js";
import type { SvmChainConfig } from "./svmChainFamily.js";

/**
 * Refunds of Solana deposits, paid by the depository's wallet (SOLANA_DEPOSITORY_SECRET_KEY): a payment like a fill's —
 * a SOL transfer or an SPL transferChecked (opening the refundee's token account when missing) — with a Memo of the
 * order id, simulated first, signed with a fresh blockhash, stored before it is sent; one whose blockhash expires
 * unlanded is signed anew (`resignExpired`) and stored in its place before it is sent. The depository pools every
 * deposit, so a refund waits for its deposit to be final (`refundSpendsDeposit: false`). The poller reads the
 * depository's memo-named payments as withdrawal facts, which confirm the refund. Without the key every refund goes
 * to an operator.
 */
export function createSvmRefunder(chain: SvmChainConfig, depositoryKey?: Keypair): RefundPort {
  // The depository pays as the solver pays: the same payment, from another wallet.
  const payer = createSvmSolver({ ...chain, solver: chain.depository }, depositoryKey);
  return {
    chain,
    refundSpendsDeposit: false,
    async prepareRefund(refund) {
      // Without the depository's key the refund goes to an operator (MANUAL_REFUND_REQUIRED).
      if (!depositoryKey)
        return { refusal: `no SOLANA_DEPOSITORY_SECRET_KEY to pay refunds on chain ${chain.id} with` };
      const prepared = await payer.prepareFill({
        requestId: refund.orderId,
        orderId: refund.orderId,
        currency: refund.currency,
        amount: refund.amount,
        recipient: refund.recipient,
        calls: [],
        currencySymbol: refund.currency,
        quotedRent: refund.chargedRent,
      });
      if ("refusal" in prepared) return { refusal: String(prepared.refusal.failure.details.message) };
      return prepared;
    },
    signTransaction: (ledger, transaction) => payer.signTransaction(ledger, transaction),
    broadcast: (signed) => payer.broadcast(signed),
    readReceipt: (txHash) => payer.readReceipt!(txHash),
    resignExpired: (sent) => payer.resignExpired!(sent),
    transactionMined: (txHash) => payer.transactionMined!(txHash),
  };
}
