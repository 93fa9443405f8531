import { zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEvmChainClient } from "../src/chains/evm/evmChainClient.js";
import type { EvmChainConfig } from "../src/chains/evm/evmChainFamily.js";
import { saveSolverBalances } from "../schema/solverBalances.js";
import { insertTestRequest } from "./support/insertTestRequest.js";
import { postQuote } from "./support/postQuote.js";
import { route } from "./support/route.js";
import { type TestStack, startTestStack } from "./support/startTestStack.js";

const ETHER = 10n ** 18n;

/**
 * The solver's inventory at quote time (attack tests first). Decided: a quote reserves nothing — quotes are free, and
 * reserving would let anyone lock the solver's inventory by quoting — while a deposit does, from the moment it is
 * seen: a quote whose output exceeds the solver's balance less what paid, unfilled requests owe on that destination
 * is refused (400 INSUFFICIENT_LIQUIDITY, the quote endpoints' code for it) and nothing is stored.
 */
describe("quotes against the solver's inventory", () => {
  let stack: TestStack;
  let balance: bigint;
  const quote = (amountOut: bigint) => {
    const [origin, destination] = stack.devnet.chains;
    return postQuote(stack.api.url, {
      user: stack.devnet.accounts[1]!.address,
      ...route(origin, destination),
      amount: amountOut.toString(),
      tradeType: "EXACT_OUTPUT",
    });
  };
  const requestCount = async () =>
    (await stack.pool.query("SELECT count(*)::int AS n FROM crossfill.requests")).rows[0].n as number;
  /** Requests paid and not filled yet, owing `amount` of the destination's ether between them. */
  const owe = async (amount: bigint) => {
    const destination = stack.devnet.chains[1]!;
    const request = await insertTestRequest(stack.pool, {
      destinationChainId: destination.id,
      destinationCurrency: zeroAddress,
      amountOut: amount,
    });
    await stack.pool.query("UPDATE crossfill.requests SET status = 'pending', fill_amount = $2 WHERE id = $1", [
      request.id,
      amount.toString(),
    ]);
    return request.id;
  };
  // The gateway reads the inventory at most once a second.
  const afterInventoryCache = () => new Promise((resolve) => setTimeout(resolve, 1_100));

  beforeAll(async () => {
    stack = await startTestStack({ pipeline: false, blockTime: 0 });
    const destination = stack.devnet.chains[1] as EvmChainConfig;
    balance = await createEvmChainClient(destination).balanceOf(stack.devnet.solver.address as never, zeroAddress);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("attack: a flood of quotes reserves nothing, so quoting cannot lock others out of the inventory", async () => {
    const share = (balance * 6n) / 10n;
    const answers = await Promise.all(Array.from({ length: 20 }, () => quote(share)));
    // 20 quotes of 60 % each: 12 times the inventory quoted, and every one still answered
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect((await quote(share)).status).toBe(200);
  });

  it("attack: paid requests hold what they owe; a quote beyond what is left is refused and nothing is stored", async () => {
    const paid = await owe(balance - ETHER / 2n);
    await afterInventoryCache();
    const before = await requestCount();
    const refused = await quote(ETHER);
    expect(refused.status).toBe(400);
    expect(refused.body.errorCode).toBe("INSUFFICIENT_LIQUIDITY");
    expect(refused.body.message).toMatch(/^the solver can fill at most 0\.4\d* ETH on chain \d+ right now$/);
    expect(await requestCount()).toBe(before);
    // what is left can still be quoted
    expect((await quote(ETHER / 10n)).status).toBe(200);
    // once filled, the request owes nothing and the inventory is back
    await stack.pool.query("UPDATE crossfill.requests SET status = 'success' WHERE id = $1", [paid]);
    await afterInventoryCache();
    expect((await quote(ETHER)).status).toBe(200);
  });

  it("attack: many paid requests each under the balance add up, and together hold the inventory", async () => {
    const third = balance / 3n;
    const ids = [await owe(third), await owe(third), await owe(third)];
    await afterInventoryCache();
    const before = await requestCount();
    const refused = await quote(third / 2n);
    expect([refused.status, refused.body.errorCode]).toEqual([400, "INSUFFICIENT_LIQUIDITY"]);
    expect(await requestCount()).toBe(before);
    await stack.pool.query("UPDATE crossfill.requests SET status = 'failure' WHERE id = ANY($1)", [ids]);
  });

  it("lists in /chains as solverCurrencies the currencies the worker last read the solver holding some of", async () => {
    const destination = stack.devnet.chains[1]!;
    const [token] = destination.currencies.filter((currency) => currency.address !== zeroAddress);
    const read = (currency: string, held: bigint) => ({
      chainId: destination.id,
      currency,
      symbol: currency === zeroAddress ? "ETH" : token!.symbol,
      decimals: 18,
      solver: stack.devnet.solver.address,
      balance: held,
      readAt: new Date(),
    });
    const solverCurrencies = async () => {
      await afterInventoryCache();
      const response = await fetch(`${stack.api.url}/chains`);
      const chains = (await response.json()).chains as Array<{ id: number; solverCurrencies: { address: string }[] }>;
      return chains.find((chain) => chain.id === destination.id)!.solverCurrencies.map((currency) => currency.address);
    };
    await saveSolverBalances(stack.pool, [read(zeroAddress, balance), read(token!.address, 0n)]);
    expect(await solverCurrencies()).toEqual([zeroAddress]);
    await saveSolverBalances(stack.pool, [read(token!.address, 5n)]);
    expect(await solverCurrencies()).toEqual([zeroAddress, token!.address]);
  });
});
