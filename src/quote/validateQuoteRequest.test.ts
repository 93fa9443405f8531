import { zeroAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { chainConfigSchema } from "../chains/chainConfig.js";
import { createChainRegistry } from "../chains/chainRegistry.js";
import { InvalidInputError } from "../domain/errors.js";
import { callExecutorAddress } from "../chains/evm/callExecutorAddress.js";
import { familyAdapters } from "../../apps/families/familyAdapters.js";
import { REGTEST_ADDRESS, TEST_BITCOIN_CHAIN } from "../../test/support/testBitcoinChain.js";
import { devnetDepositAddressKey } from "../../devnet/bitcoin/devnetDepositAddressKey.js";
import { testQuoteBody } from "../../test/support/testQuoteBody.js";
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
const adapters = familyAdapters(chains, { evm: { solver: privateKeyToAccount(generatePrivateKey()) } });
const user = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
const base = testQuoteBody;

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
  it("refuses, as the user's error, a listed chain without an adapter or without the role its side needs", () => {
    const refusal = (adapted: typeof adapters) => {
      try {
        validateQuoteRequest(base, registry, adapted);
      } catch (error) {
        return [(error as InvalidInputError).errorCode, (error as InvalidInputError).message];
      }
    };
    const onlyOrigin = familyAdapters(chains.slice(0, 1), {
      evm: { solver: privateKeyToAccount(generatePrivateKey()) },
    });
    expect(refusal(onlyOrigin)).toEqual(["UNSUPPORTED_CHAIN", "destination chain 20 is not quoted yet"]);
    expect(refusal({ ...adapters, solverOf: (id) => (id === 20 ? undefined : adapters.solverOf(id)) })).toEqual([
      "UNSUPPORTED_ROUTE",
      "chain 20 has no solver: it is no destination",
    ]);
    for (const role of ["depositsOf", "refunderOf"] as const)
      expect(refusal({ ...adapters, [role]: () => undefined })).toEqual([
        "UNSUPPORTED_ROUTE",
        "chain 10 takes no deposits: it is no origin",
      ]);
    expect(refusal(adapters)).toBeUndefined();
  });

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
    expect(codeOf({ ...base, destinationChainId: 10 })).toBeUndefined();
    expect(codeOf({ ...base, useDepositAddress: true })).toBe("UNSUPPORTED_ROUTE");
    expect(codeOf({ ...base, amount: "0" })).toBe("INVALID_INPUT");
  });

  it("refuses a gas top-up it would not make; takes topupGas false", () => {
    expect(codeOf({ ...base, topupGas: false })).toBeUndefined();
    expect(codeOf({ ...base, topupGas: true })).toBe("INVALID_INPUT");
    expect(codeOf({ ...base, topupGasAmount: "1000" })).toBe("INVALID_INPUT");
    expect(() => validateQuoteRequest({ ...base, topupGas: true }, registry, adapters)).toThrow(/does not top up/);
  });

  it("takes a Bitcoin origin with a Bitcoin user of the chain's network, refuses Bitcoin destinations without a solver", () => {
    const btc = { originChainId: TEST_BITCOIN_CHAIN.id, originCurrency: "bc1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqmql8k8" };
    const fromBitcoin = { ...base, ...btc, user: REGTEST_ADDRESS, recipient: user };
    const request = validateQuoteRequest(fromBitcoin, registry, adapters);
    expect(request).toMatchObject({ user: REGTEST_ADDRESS, refundTo: REGTEST_ADDRESS });
    expect(request.recipient.toLowerCase()).toBe(user);
    expect(request.currencyIn.symbol).toBe("BTC");
    // Bitcoin addresses are case-sensitive: upper case is BIP173's other form, mixed case is refused.
    expect(validateQuoteRequest({ ...fromBitcoin, user: REGTEST_ADDRESS.toUpperCase() }, registry, adapters).user).toBe(
      REGTEST_ADDRESS,
    );
    const mixedCase = REGTEST_ADDRESS.replace("w508", "W508");
    for (const wrong of [mixedCase, "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", btc.originCurrency, user])
      expect(codeOf({ ...fromBitcoin, user: wrong }), wrong).toBe("INVALID_ADDRESS");
    // Without a recipient the user is paid: a Bitcoin user is no EVM address.
    expect(codeOf({ ...fromBitcoin, recipient: undefined })).toBe("INVALID_ADDRESS");
    expect(codeOf({ ...fromBitcoin, refundTo: user })).toBe("INVALID_ADDRESS");
    // App fees are claimed from an EVM Depository; a same-chain request needs an EVM chain.
    expect(codeOf({ ...fromBitcoin, appFees: [{ recipient: user, fee: "10" }] })).toBe("UNSUPPORTED_ROUTE");
    expect(
      codeOf({ ...fromBitcoin, destinationChainId: TEST_BITCOIN_CHAIN.id, destinationCurrency: btc.originCurrency }),
    ).toBe("UNSUPPORTED_ROUTE");
    expect(() =>
      validateQuoteRequest(
        {
          ...base,
          destinationChainId: TEST_BITCOIN_CHAIN.id,
          destinationCurrency: btc.originCurrency,
          recipient: REGTEST_ADDRESS,
        },
        registry,
        adapters,
      ),
    ).toThrow(
      expect.objectContaining({ errorCode: "UNSUPPORTED_ROUTE", message: expect.stringMatching(/destination/) }),
    );
  });

  it("takes a Bitcoin destination of a chain with a solver wallet, paying a Bitcoin recipient of its network", () => {
    const solver = "bcrt1quvmqzt9ug428ft3f7nkjtazd20quyy8dz6k7d7";
    const recipient = "bcrt1q54433tsq8cscuc6ussxnnjuy4633f0ylpelegv";
    const withSolver = [...chains.slice(0, 2), { ...TEST_BITCOIN_CHAIN, solver }];
    const [registry, adapters] = [
      createChainRegistry(withSolver),
      familyAdapters(withSolver, { evm: { solver: privateKeyToAccount(generatePrivateKey()) } }),
    ];
    const toBitcoin = {
      ...base,
      destinationChainId: TEST_BITCOIN_CHAIN.id,
      destinationCurrency: "bc1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqmql8k8",
      recipient,
    };
    const request = validateQuoteRequest(toBitcoin, registry, adapters);
    expect(request.recipient).toBe(recipient);
    expect(request.refundTo.toLowerCase()).toBe(user);
    expect(request.currencyOut.symbol).toBe("BTC");
    const code = (body: object) => {
      try {
        validateQuoteRequest(body, registry, adapters);
      } catch (error) {
        return (error as InvalidInputError).errorCode;
      }
    };
    const mixedCase = `${recipient.slice(0, -3)}${recipient.slice(-3).toUpperCase()}`;
    const mainnet = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
    for (const wrong of [mixedCase, mainnet, toBitcoin.destinationCurrency, user, undefined])
      expect(code({ ...toBitcoin, recipient: wrong }), wrong).toBe("INVALID_ADDRESS");
    expect(code({ ...toBitcoin, recipient: solver })).toBe("INVALID_RECIPIENT");
    // A payout names its order in an OP_RETURN: there is no solver signature of it to include.
    expect(() => validateQuoteRequest({ ...toBitcoin, includeProtocolData: true }, registry, adapters)).toThrow(
      expect.objectContaining({
        errorCode: "UNSUPPORTED_ROUTE",
        message: expect.stringMatching(/includeProtocolData/),
      }),
    );
    expect(code({ ...toBitcoin, recipient: TEST_BITCOIN_CHAIN.depository })).toBe("INVALID_RECIPIENT");
    expect(code({ ...toBitcoin, txs: [{ to: REGTEST_ADDRESS, value: "0", data: "0x" }] })).toBe("INVALID_INPUT");
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

  it("refuses destination calls to the destination's Receiver, Depository and call executor", () => {
    const destination = chains[1];
    if (destination.vmType !== "evm") throw new Error("chain b is EVM");
    const targets = [destination.receiver, destination.depository, callExecutorAddress(destination.receiver)];
    for (const to of [...targets, ...targets.map((target) => target.toUpperCase().replace("0X", "0x"))]) {
      expect(() => validateQuoteRequest({ ...base, txs: [{ to: user }, { to }] }, registry, adapters)).toThrow(
        /^txs\[1\]\.to: .* destination calls may not call them$/,
      );
      expect(codeOf({ ...base, txs: [{ to }] })).toBe("INVALID_INPUT");
    }
    // Any other contract is the caller's to call.
    expect(codeOf({ ...base, txs: [{ to: "0x00000000000000000000000000000000000000d1" }] })).toBeUndefined();
  });

  it("reads the sponsorship fields: defaults, and each one needing subsidizeFees, subsidizationBps a swap", () => {
    const usdcToEth = { ...base, originCurrency: usdcA, destinationCurrency: zeroAddress };
    expect(validateQuoteRequest(usdcToEth, registry, adapters).sponsorship).toBeUndefined();
    expect(
      validateQuoteRequest({ ...usdcToEth, subsidizeFees: false }, registry, adapters).sponsorship,
    ).toBeUndefined();
    expect(validateQuoteRequest({ ...usdcToEth, subsidizeFees: true }, registry, adapters).sponsorship).toEqual({
      components: ["execution", "swap", "relay"],
      bps: 10_000n,
      capMicroUsd: undefined,
    });
    const full = {
      ...usdcToEth,
      subsidizeFees: true,
      subsidizationBps: 2500,
      maxSubsidizationAmount: "5000000",
      sponsoredFeeComponents: ["rent", "execution"],
    };
    expect(validateQuoteRequest(full, registry, adapters).sponsorship).toEqual({
      components: ["rent", "execution"],
      bps: 2_500n,
      capMicroUsd: 5_000_000n,
    });
    expect(codeOf({ ...usdcToEth, subsidizationBps: 0 })).toBe("INVALID_INPUT");
    expect(codeOf({ ...usdcToEth, maxSubsidizationAmount: "1" })).toBe("INVALID_INPUT");
    expect(codeOf({ ...usdcToEth, sponsoredFeeComponents: [] })).toBe("INVALID_INPUT");
    expect(codeOf({ ...usdcToEth, subsidizeFees: true, sponsoredFeeComponents: ["platform"] })).toBe("INVALID_INPUT");
    // A bridge (same asset) or a call is not a swap execution flow.
    expect(codeOf({ ...base, subsidizeFees: true, subsidizationBps: 1 })).toBe("INVALID_INPUT");
    expect(
      codeOf({ ...usdcToEth, subsidizeFees: true, subsidizationBps: 1, txs: [{ to: user, value: "0", data: "0x" }] }),
    ).toBe("INVALID_INPUT");
    expect(validateQuoteRequest({ ...base, subsidizeFees: true }, registry, adapters).sponsorship?.bps).toBe(10_000n);
    // On one chain too: a same-chain swap takes it, a send does not.
    const sameChain = { ...usdcToEth, destinationChainId: 10, subsidizeFees: true, subsidizationBps: 1 };
    expect(validateQuoteRequest(sameChain, registry, adapters).sponsorship?.bps).toBe(1n);
    expect(codeOf({ ...sameChain, destinationCurrency: usdcA })).toBe("INVALID_INPUT");
  });

  it("takes deposit addresses on a Bitcoin origin with an account key only; strict needs refundTo", () => {
    const keyed = familyAdapters(chains, {
      evm: { solver: privateKeyToAccount(generatePrivateKey()) },
      bvm: { depositAddressKey: devnetDepositAddressKey().xpub },
    });
    const btc = { originChainId: TEST_BITCOIN_CHAIN.id, originCurrency: "bc1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqmql8k8" };
    const body = { ...base, ...btc, user: REGTEST_ADDRESS, recipient: user, useDepositAddress: true };
    const code = (input: unknown) => {
      try {
        validateQuoteRequest(input, registry, keyed);
        return undefined;
      } catch (error) {
        return (error as InvalidInputError).errorCode;
      }
    };
    expect(validateQuoteRequest(body, registry, keyed).depositAddress).toEqual({ type: "open" });
    expect(
      validateQuoteRequest({ ...body, strict: true, refundTo: REGTEST_ADDRESS }, registry, keyed).depositAddress,
    ).toEqual({
      type: "strict",
    });
    expect(code({ ...body, strict: true })).toBe("INVALID_INPUT");
    expect(code({ ...body, useDepositAddress: false, strict: true, refundTo: REGTEST_ADDRESS })).toBe("INVALID_INPUT");
    // No account key configured: no deposit addresses.
    expect(codeOf(body)).toBe("UNSUPPORTED_ROUTE");
    expect(code({ ...base, useDepositAddress: true })).toBe("UNSUPPORTED_ROUTE");
    expect(
      validateQuoteRequest({ ...body, useDepositAddress: undefined }, registry, keyed).depositAddress,
    ).toBeUndefined();
  });
});
