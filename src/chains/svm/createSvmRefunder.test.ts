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
