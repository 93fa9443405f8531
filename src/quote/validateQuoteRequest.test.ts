import { zeroAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { chainConfigSchema } from "../chains/chainConfig.js";
import { createChainRegistry } from "../chains/chainRegistry.js";
import { InvalidInputError } from "../domain/errors.js";
import { solverAdapters } from "../roles/solverAdapters.js";
import { REGTEST_ADDRESS, TEST_BITCOIN_CHAIN } from "../../test/support/testBitcoinChain.js";
import { validateQuoteRequest } from "./validateQuoteRequest.js";

const usdcA = "0x00000000000000000000000000000000000000a1";
const usdcB = "0x00000000000000000000000000000000000000b1";
const chain = (id: number, name: string, usdc: string) =>
  chainConfigSchema.parse({
    id,
    name,
    rpcUrl: "http://127.0.0.1:1",
    depository: "0x00000000000000000000000000000000000000d0",
    receiver: "0x00000000000000000000000000000000000000e0",
    currencies: [{ symbol: "USDC", address: usdc, decimals: 6 }],
  });
const chains = [chain(10, "a", usdcA), chain(20, "b", usdcB), TEST_BITCOIN_CHAIN];
const registry = createChainRegistry(chains);
const adapters = solverAdapters(chains, { evm: privateKeyToAccount(generatePrivateKey()) });
const user = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
const base = {
  user,
  originChainId: 10,
  destinationChainId: 20,
  originCurrency: zeroAddress,
  destinationCurrency: zeroAddress,
  amount: "1000",
  tradeType: "EXACT_INPUT",
};

function codeOf(body: unknown): string | undefined {
  try {
    validateQuoteRequest(body, registry, adapters);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError);
    return (error as InvalidInputError).errorCode;
  }
}

describe("validateQuoteRequest", () => {
  it("normalises a valid request: checksummed addresses, defaults for recipient and refundTo, bigint amount", () => {
    const request = validateQuoteRequest({ ...base, originChainId: "10", slippageTolerance: "75" }, registry, adapters);
    expect(request.user).toBe("0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
    expect(request.recipient).toBe(request.user);
    expect(request.refundTo).toBe(request.user);
    expect(request.amount).toBe(1000n);
    expect(request.slippageBps).toBe(75n);
    expect(request.originChain.id).toBe(10);
    expect(request.currencyIn.metadata.isNative).toBe(true);
  });

  it("matches currencies case-insensitively", () => {
    expect(
      validateQuoteRequest({ ...base, originCurrency: usdcA.toUpperCase().replace("0X", "0x") }, registry, adapters)
        .currencyIn.symbol,
    ).toBe("USDC");
  });

  it("maps each problem to the spec's code", () => {
    expect(codeOf(null)).toBe("INVALID_INPUT");
    expect(codeOf({ ...base, amount: "01x" })).toBe("INVALID_INPUT");
    expect(codeOf({ ...base, slippageTolerance: "10001" })).toBe("INVALID_SLIPPAGE_TOLERANCE");
    expect(codeOf({ ...base, latePaymentSlippageTolerance: "" })).toBe("INVALID_SLIPPAGE_TOLERANCE");
    expect(codeOf({ ...base, recipient: "0xnothex" })).toBe("INVALID_ADDRESS");
    expect(codeOf({ ...base, recipient: zeroAddress })).toBe("INVALID_ADDRESS");
    expect(codeOf({ ...base, recipient: usdcB })).toBe("INVALID_RECIPIENT");
    expect(codeOf({ ...base, recipient: "0x00000000000000000000000000000000000000e0" })).toBe("INVALID_RECIPIENT");
    expect(codeOf({ ...base, destinationCurrency: usdcA })).toBe("UNSUPPORTED_CURRENCY");
    expect(codeOf({ ...base, originChainId: 30 })).toBe("UNSUPPORTED_CHAIN");
    expect(codeOf({ ...base, destinationChainId: 10 })).toBe("UNSUPPORTED_ROUTE");
    expect(codeOf({ ...base, useDepositAddress: true })).toBe("UNSUPPORTED_ROUTE");
    expect(codeOf({ ...base, amount: "0" })).toBe("INVALID_INPUT");
  });

  it("refuses any route touching Bitcoin until its deposits and fills land", () => {
    const btc = { chainId: TEST_BITCOIN_CHAIN.id, currency: "bc1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqmql8k8" };
    for (const body of [
      { ...base, originChainId: btc.chainId, originCurrency: btc.currency, user: REGTEST_ADDRESS, recipient: user },
      { ...base, destinationChainId: btc.chainId, destinationCurrency: btc.currency, recipient: REGTEST_ADDRESS },
    ]) {
      expect(() => validateQuoteRequest(body, registry, adapters)).toThrow("Bitcoin quotes are not offered yet");
      expect(codeOf(body)).toBe("UNSUPPORTED_ROUTE");
    }
  });

  it("holds destination calls to the amount rules", () => {
    const call = (value: string) => ({ to: user, value, data: "0x" });
    expect(
      codeOf({ ...base, tradeType: "EXACT_OUTPUT", amount: "300", txs: [call("100"), call("200")] }),
    ).toBeUndefined();
    expect(codeOf({ ...base, tradeType: "EXACT_OUTPUT", amount: "301", txs: [call("100"), call("200")] })).toBe(
      "INVALID_INPUT",
    );
    expect(codeOf({ ...base, destinationCurrency: usdcB, txs: [call("1")] })).toBe("INVALID_INPUT");
    expect(codeOf({ ...base, txs: [{ to: user, value: "0", data: "0x123" }] })).toBe("INVALID_INPUT");
    expect(validateQuoteRequest({ ...base, txs: [{ to: user }] }, registry, adapters).calls).toEqual([
      { to: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", value: 0n, data: "0x" },
    ]);
  });
});
