import { Connection, Keypair, PublicKey } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devnetSolanaChain } from "../../../devnet/svm/devnetSolanaChain.js";
import { type DevnetSolana, startDevnetSolana } from "../../../devnet/svm/startDevnetSolana.js";
import { createSvmRefunder } from "./createSvmRefunder.js";
import { svmChainConfigSchema } from "./svmChainFamily.js";
import { SOLANA_NATIVE_CURRENCY } from "./svmFamily.js";
import { svmFillFacts } from "./svmFillFacts.js";

const orderId = `0x${"5e".repeat(32)}`;

describe("createSvmRefunder", () => {
  let solana: DevnetSolana;
  let connection: Connection;
  beforeAll(async () => {
    solana = await startDevnetSolana({ slotMs: 0, confirmedAfterSlots: 0, finalizedAfterSlots: 0 });
    connection = new Connection(solana.rpcUrl, "confirmed");
  });
  afterAll(() => solana?.stop());
  const chain = () => svmChainConfigSchema.parse(devnetSolanaChain(solana));

  it("pays the refundee from the depository with a Memo of the order id; sending it again pays nothing more", async () => {
    const refunder = createSvmRefunder(chain(), solana.depository);
    expect(refunder.refundSpendsDeposit).toBe(false);
    const refundee = Keypair.generate().publicKey.toBase58();
    const refund = { orderId, currency: SOLANA_NATIVE_CURRENCY, recipient: refundee, amount: 1_500_000n };
    const prepared = await refunder.prepareRefund(refund);
    if (!("transaction" in prepared)) throw new Error(prepared.refusal);
    const signed = await refunder.signTransaction({} as never, prepared.transaction);
    await refunder.broadcast(signed);
    await refunder.broadcast(signed);
    expect(BigInt(await connection.getBalance(new PublicKey(refundee)))).toBe(1_500_000n);
    const tx = await connection.getParsedTransaction(signed.txHash, { maxSupportedTransactionVersion: 0 });
    // Read back as the poller reads it: the depository's payment named by the order.
    expect(svmFillFacts(tx!, chain().depository)).toMatchObject([
      { requestId: orderId, recipient: refundee, amount: 1_500_000n },
    ]);
    expect(await refunder.readReceipt!(signed.txHash)).toMatchObject({ succeeded: true, fee: 5_000n });
  });

  it("re-signs a refund only once its blockhash expired and it landed nowhere; the re-signed one lands once", async () => {
    const refunder = createSvmRefunder(chain(), solana.depository);
    const refundee = Keypair.generate().publicKey.toBase58();
    const prepared = await refunder.prepareRefund({
      orderId,
      currency: SOLANA_NATIVE_CURRENCY,
      recipient: refundee,
      amount: 2_000_000n,
    });
    if (!("transaction" in prepared)) throw new Error(prepared.refusal);
    const signed = await refunder.signTransaction({} as never, prepared.transaction);
    // The cluster drops it: unlanded, and its blockhash still valid, it is not re-signed.
    solana.ledger.dropTransactionsOf(chain().depository);
    await refunder.broadcast(signed);
    solana.advance(150);
    expect(await refunder.resignExpired!(signed)).toBeUndefined();
    expect(await refunder.transactionMined!(signed.txHash)).toBeUndefined();
    solana.advance();
    const next = await refunder.resignExpired!(signed);
    expect(next?.txHash).not.toBe(signed.txHash);
    solana.ledger.dropTransactionsOf(chain().depository, false);
    // The expired one can never land; the new one lands, and a landed one is never re-signed.
    await expect(refunder.broadcast(signed)).rejects.toThrow(/Blockhash not found/);
    await refunder.broadcast(next!);
    solana.advance(151);
    expect(await refunder.resignExpired!(next!)).toBeUndefined();
    expect(await refunder.transactionMined!(next!.txHash)).toBe(true);
    expect(BigInt(await connection.getBalance(new PublicKey(refundee)))).toBe(2_000_000n);
  });

  it("leaves refunds to an operator without the depository's key, and refuses what could not be paid", async () => {
    const refund = { orderId, currency: SOLANA_NATIVE_CURRENCY, recipient: Keypair.generate().publicKey.toBase58() };
    expect(await createSvmRefunder(chain()).prepareRefund({ ...refund, amount: 1_500_000n })).toEqual({
      refusal: expect.stringContaining("SOLANA_DEPOSITORY_SECRET_KEY"),
    });
    // Below rent-exemption for a new account: the chain would refuse it.
    expect(await createSvmRefunder(chain(), solana.depository).prepareRefund({ ...refund, amount: 1_000n })).toEqual({
      refusal: expect.stringContaining("rent-exempt"),
    });
  });
});
