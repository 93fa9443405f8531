import { zeroAddress } from "viem";
import { expect } from "vitest";
import { buildDepositPsbt } from "../src/chains/bitcoin/buildDepositPsbt.js";
import { BITCOIN_NATIVE_CURRENCY } from "../src/chains/bitcoin/bitcoinFamily.js";
import { encodeDepositMemo } from "../src/chains/bitcoin/encodeDepositMemo.js";
import { broadcastPsbt } from "./support/broadcastPsbt.js";
import { describeIndexMissedSettlements } from "./support/indexMissedSettlementsCase.js";
import type { TestStack } from "./support/startTestStack.js";

const btc = (stack: TestStack) => stack.bitcoin!.devnet;

describeIndexMissedSettlements({
  name: "Bitcoin",
  stackOptions: { bitcoin: true },
  chainId: (stack) => stack.bitcoin!.chain.id,
  hashesLikeEvm: false,
  fillQuote: (stack) => ({
    destinationChainId: stack.bitcoin!.chain.id,
    originCurrency: zeroAddress,
    destinationCurrency: BITCOIN_NATIVE_CURRENCY,
    amount: (10n ** 17n).toString(),
    recipient: btc(stack).accounts[2]!.address,
  }),
  refundQuote: (stack) => ({
    user: btc(stack).accounts[0]!.address,
    originChainId: stack.bitcoin!.chain.id,
    originCurrency: BITCOIN_NATIVE_CURRENCY,
    destinationCurrency: zeroAddress,
    amount: "1000000",
  }),
  async deposit(stack, quote) {
    const { txid } = await broadcastPsbt(btc(stack), quote.steps[0].items[0].data.psbt, btc(stack).accounts[0]!.wif);
    btc(stack).mine(1);
    return txid;
  },
  // In the mempool the chain does not count it yet: 404 (the spec's answer), then a block.
  async settle(stack, txHash, index) {
    expect(await index({ txHash, chainId: stack.bitcoin!.chain.id })).toMatchObject({
      status: 404,
      body: { errorCode: "TRANSACTION_NOT_FOUND" },
    });
    btc(stack).mine(1);
  },
  // Another wallet pays the recipient with the order in its OP_RETURN, as the solver's payout does.
  async forgedFill(stack, quote) {
    const stranger = btc(stack).accounts[4]!;
    const utxos = (await fetch(`${btc(stack).esploraUrl}/address/${stranger.address}/utxo`).then((r) => r.json())) as {
      txid: string;
      vout: number;
      value: number;
      status: { confirmed: boolean };
    }[];
    const { psbt } = buildDepositPsbt({
      network: btc(stack).network,
      payer: stranger.address,
      utxos: utxos
        .filter((utxo) => utxo.status.confirmed)
        .map((utxo) => ({ txid: utxo.txid, vout: utxo.vout, value: BigInt(utxo.value) })),
      payee: btc(stack).accounts[2]!.address,
      amount: BigInt(quote.details.currencyOut.amount),
      memo: encodeDepositMemo(quote.protocol.v2.orderId),
      feeRate: 2,
    });
    const { txid } = await broadcastPsbt(btc(stack), psbt.toHex(), stranger.wif);
    btc(stack).mine(1);
    return txid;
  },
  // The EVM deposit's hash, written as a txid, is no transaction of the Bitcoin chain.
  wrongChain: (stack, { evmDeposit }) => [{ txHash: evmDeposit.slice(2), chainId: stack.bitcoin!.chain.id }],
});
