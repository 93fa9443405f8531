import { LogLevel, createClient, getClient } from "@relayprotocol/relay-sdk";
import { configureDynamicChains } from "@relayprotocol/relay-sdk/chain-utils";
import { Psbt, address } from "bitcoinjs-lib";
import { createWalletClient, http, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ecPair } from "../devnet/bitcoin/ecPair.js";
import { BITCOIN_NATIVE_CURRENCY } from "../src/chains/bitcoin/bitcoinFamily.js";
import { pollStatus } from "./support/pollStatus.js";
import { type TestStack, startTestStack } from "./support/startTestStack.js";

/**
 * The official client on Bitcoin routes: getQuote on a Bitcoin origin hands back the PSBT step as we answer it
 * (signed and sent by the test); execute on a Bitcoin destination sends the EVM deposit and stops at `submitted`.
 */
describe("@relayprotocol/relay-sdk: Bitcoin ↔ EVM", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ bitcoin: true });
    createClient({ baseApiUrl: stack.api.url, source: "crossfill-tests", logLevel: LogLevel.None });
    await configureDynamicChains();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("hands back our PSBT deposit step; signed and broadcast as its wallet adapter does, it fills", async () => {
    const btc = stack.bitcoin!.devnet;
    const user = btc.accounts[0]!;
    const destination = stack.devnet.chains[0];
    expect(getClient().chains.map((chain) => chain.id)).toContain(stack.bitcoin!.chain.id);
    const quote = await getClient().actions.getQuote({
      chainId: stack.bitcoin!.chain.id,
      toChainId: destination.id,
      currency: BITCOIN_NATIVE_CURRENCY,
      toCurrency: zeroAddress,
      amount: "1000000",
      tradeType: "EXACT_INPUT",
      user: user.address,
      recipient: stack.devnet.accounts[1].address,
    });
    expect(quote.steps.map((step) => step.id)).toEqual(["deposit"]);
    const psbtHex = (quote.steps[0]!.items![0]!.data as { psbt: string }).psbt;
    const psbt = Psbt.fromHex(psbtHex, { network: btc.network });
    expect(address.fromOutputScript(psbt.txOutputs[0]!.script, btc.network)).toBe(stack.bitcoin!.chain.depository);
    expect(psbt.txOutputs[0]!.value).toBe(1_000_000n);

    psbt.signAllInputs(ecPair.fromWIF(user.wif, btc.network));
    psbt.finalizeAllInputs();
    const sent = await fetch(`${btc.esploraUrl}/tx`, { method: "POST", body: psbt.extractTransaction().toHex() });
    expect(sent.status, await sent.clone().text()).toBe(200);
    const requestId = quote.steps[0]!.requestId!;
    await pollStatus(stack.api.url, requestId, { until: ["pending"], timeoutMs: 15_000 });
    btc.mine(1);
    const { last } = await pollStatus(stack.api.url, requestId, { timeoutMs: 30_000 });
    expect(last.status).toBe("success");
  }, 60_000);

  it("executes an EVM → BTC quote: the deposit sent, its polling done at submitted, paid once mined", async () => {
    const btc = stack.bitcoin!.devnet;
    const origin = stack.devnet.chains[0];
    const account = stack.devnet.accounts[2];
    const recipient = btc.accounts[3]!.address;
    const sats = async () => {
      const { chain_stats: mined } = await (await fetch(`${btc.esploraUrl}/address/${recipient}`)).json();
      return BigInt(mined.funded_txo_sum - mined.spent_txo_sum);
    };
    const before = await sats();
    const quote = await getClient().actions.getQuote({
      chainId: origin.id,
      toChainId: stack.bitcoin!.chain.id,
      currency: zeroAddress,
      toCurrency: BITCOIN_NATIVE_CURRENCY,
      amount: "50000000000000000",
      tradeType: "EXACT_INPUT",
      user: account.address,
      recipient,
    });
    expect(quote.steps.map((step) => step.id)).toEqual(["deposit"]);
    const seen = new Set<string>();
    await getClient().actions.execute({
      quote,
      wallet: createWalletClient({ account, transport: http(origin.rpcUrl) }),
      disableCapabilitiesCheck: true,
      onProgress: ({ currentStepItem }) => {
        const status = (currentStepItem as { checkStatus?: string } | undefined)?.checkStatus;
        if (status) seen.add(status);
      },
    });
    // It stops polling a Bitcoin destination at submitted: the payout is in the mempool, not yet in a block.
    expect(seen.has("submitted")).toBe(true);
    expect(seen.has("success")).toBe(false);
    btc.mine(1);
    const { last } = await pollStatus(stack.api.url, quote.steps[0]!.requestId!, { timeoutMs: 30_000 });
    expect(last.status).toBe("success");
    expect(await sats()).toBe(before + BigInt(quote.details!.currencyOut!.amount!));
  }, 90_000);
});
