import type { Hex } from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { exchangeApp } from "./exchangeApp.js";
import { createExchangeLedger } from "./exchangeLedger.js";
import { devnetExchangeTokens, tokenSpec } from "./exchangeTokens.js";
import type { UserSignedAction } from "./parseExchangeRequest.js";
import { signUserSignedAction } from "./signUserSignedAction.js";

// The two anvil development keys used as exchange accounts here; never use them anywhere else.
const alice = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
const bob = privateKeyToAccount("0x5de4111afa1a4b94908f83103eb1f1706367c2e10ca8bcd48a61ac7f4f44e7da");
const [usdc, hype] = devnetExchangeTokens as [(typeof devnetExchangeTokens)[0], (typeof devnetExchangeTokens)[0]];
const start = 1_800_000_000_000;

type Action = { type: UserSignedAction["type"]; signatureChainId: Hex } & Record<string, unknown>;

/** Signs as the SDK does and returns the body it posts, `{action, nonce, signature: {r, s, v}}`. */
const sign = (signer: PrivateKeyAccount, action: Action) => signUserSignedAction(signer, action as UserSignedAction);

function devnet() {
  let clock = start;
  const ledger = createExchangeLedger({ network: "Testnet", tokens: devnetExchangeTokens, now: () => clock });
  ledger.fund(alice.address, { perpsUsdc: 1_000n * 10n ** 8n, spot: { HYPE: 50n * 10n ** 8n } });
  // Bob has an account (holding nothing): transfers to him cost no activation fee.
  ledger.fund(bob.address, {});
  const app = exchangeApp(ledger, () => clock);
  const post = async (path: string, body: unknown) => {
    const res = await app.request(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return {
      status: res.status,
      type: res.headers.get("content-type"),
      body: res.status === 200 ? await res.json() : await res.text(),
    };
  };
  return { ledger, post, tick: (ms = 1) => (clock += ms), now: () => clock };
}

const usdSend = (nonce: number, amount = "12.5", extra: Record<string, unknown> = {}): Action => ({
  type: "usdSend",
  signatureChainId: "0x66eee",
  hyperliquidChain: "Testnet",
  destination: bob.address.toLowerCase(),
  amount,
  time: nonce,
  ...extra,
});
const ok = { status: "ok", response: { type: "default" } };

describe("the devnet exchange's POST /exchange", () => {
  it("accepts a usdSend signed as the SDK signs it and moves perps USDC at 8 decimals", async () => {
    const { ledger, post, now } = devnet();
    const sent = await post("/exchange", await sign(alice, usdSend(now(), "12.34567891")));
    expect(sent).toEqual({ status: 200, type: "application/json", body: ok });
    expect(ledger.perpsBalance(alice.address)).toBe(100_000_000_000n - 1_234_567_891n);
    expect(ledger.perpsBalance(bob.address)).toBe(1_234_567_891n);

    const state = await post("/info", { type: "clearinghouseState", user: bob.address });
    expect(state.body).toMatchObject({ withdrawable: "12.34567891", marginSummary: { accountValue: "12.34567891" } });
    const updates = (await post("/info", { type: "userNonFundingLedgerUpdates", user: bob.address, startTime: 0 }))
      .body as Array<{ hash: Hex; time: number; delta: unknown }>;
    expect(updates).toEqual([
      {
        time: now(),
        hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        delta: {
          type: "internalTransfer",
          usdc: "12.34567891",
          user: alice.address.toLowerCase(),
          destination: bob.address.toLowerCase(),
          fee: "0.0",
        },
      },
    ]);
    // The sender's ledger holds the same entry; the explorer finds it by hash.
    expect(ledger.updates(alice.address)).toEqual(updates);
    const tx = await post("/explorer", { type: "txDetails", hash: updates[0]!.hash });
    expect(tx.body).toMatchObject({
      type: "txDetails",
      tx: { user: alice.address, error: null, action: { type: "usdSend" } },
    });
  });

  it("charges the sender 1 USDC on top of a transfer to an account it has never seen, once; refuses one without it", async () => {
    const { ledger, post, now } = devnet();
    const carol = privateKeyToAccount(generatePrivateKey()).address.toLowerCase();
    expect((await post("/exchange", await sign(alice, usdSend(now(), "2", { destination: carol })))).body).toEqual(ok);
    expect(ledger.perpsBalance(alice.address)).toBe(100_000_000_000n - 200_000_000n - 100_000_000n);
    expect(ledger.perpsBalance(carol)).toBe(200_000_000n);
    expect(ledger.updates(carol)[0]!.delta).toMatchObject({ type: "internalTransfer", usdc: "2.0", fee: "1.0" });
    // Carol exists now: the next transfer to her costs nothing more.
    expect((await post("/exchange", await sign(alice, usdSend(now() + 1, "2", { destination: carol })))).body).toEqual(
      ok,
    );
    expect(ledger.perpsBalance(alice.address)).toBe(100_000_000_000n - 500_000_000n);
    // From spot, the fee is spot USDC: alice has HYPE there but no USDC, so a HYPE transfer to a new account fails.
    const dave = privateKeyToAccount(generatePrivateKey()).address.toLowerCase();
    const spotSend = {
      type: "spotSend",
      signatureChainId: "0x66eee",
      hyperliquidChain: "Testnet",
      destination: dave,
      token: tokenSpec(hype),
      amount: "1",
      time: now() + 2,
    } as Action;
    expect((await post("/exchange", await sign(alice, spotSend))).body).toEqual({
      status: "err",
      response: "Insufficient USDC balance for token transfer gas",
    });
    expect(ledger.spotBalances(dave)).toEqual([]);
    expect(ledger.spotBalances(alice.address)).toEqual([{ token: hype, amount: 50n * 10n ** 8n }]);
  });

  it("accepts any signatureChainId: the domain takes the chain the action names", async () => {
    const { post, now } = devnet();
    for (const [i, chain] of (["0x1", "0xa4b1", "0x3e7"] as Hex[]).entries())
      expect(
        (await post("/exchange", await sign(alice, usdSend(now() + i, "1", { signatureChainId: chain })))).body,
      ).toEqual(ok);
  });

  it("refuses an action signed for the other network", async () => {
    const { ledger, post, now } = devnet();
    const sent = await post("/exchange", await sign(alice, usdSend(now(), "1", { hyperliquidChain: "Mainnet" })));
    expect(sent.body).toEqual({
      status: "err",
      response: "Invalid hyperliquidChain Mainnet: this exchange is Testnet",
    });
    expect(ledger.perpsBalance(bob.address)).toBe(0n);
  });

  it("refuses a reused nonce, a stale one and one the action did not sign", async () => {
    const { ledger, post, now } = devnet();
    const signed = await sign(alice, usdSend(now()));
    expect((await post("/exchange", signed)).body).toEqual(ok);
    // The very same request again, and another transfer with the same nonce.
    expect((await post("/exchange", signed)).body).toEqual({
      status: "err",
      response: `Invalid nonce: duplicate nonce ${now()}`,
    });
    const again = await sign(alice, usdSend(now(), "3"));
    expect((await post("/exchange", again)).body).toMatchObject({ status: "err", response: /duplicate nonce/ });
    const stale = await sign(alice, usdSend(now() - 3 * 24 * 3600 * 1000));
    expect((await post("/exchange", stale)).body).toMatchObject({
      status: "err",
      response: /outside the allowed window/,
    });
    const mismatched = { ...(await sign(alice, usdSend(now() + 5))), nonce: now() + 6 };
    expect((await post("/exchange", mismatched)).body).toMatchObject({
      status: "err",
      response: /differs from the action's/,
    });
    expect(ledger.perpsBalance(bob.address)).toBe(1_250_000_000n);
  });

  it("refuses a signer without an account and a tampered action, which recovers another address", async () => {
    const { ledger, post, now } = devnet();
    const stranger = privateKeyToAccount(generatePrivateKey());
    expect((await post("/exchange", await sign(stranger, usdSend(now())))).body).toEqual({
      status: "err",
      response: `User or API Wallet ${stranger.address.toLowerCase()} does not exist.`,
    });
    const signed = await sign(alice, usdSend(now(), "1"));
    const tampered = { ...signed, action: { ...signed.action, amount: "900" } };
    expect((await post("/exchange", tampered)).body).toMatchObject({
      status: "err",
      response: /^User or API Wallet 0x[0-9a-f]{40} does not exist\.$/,
    });
    expect(ledger.perpsBalance(bob.address)).toBe(0n);
    // The untampered request still goes through: a refused forgery spent nothing of alice's.
    expect((await post("/exchange", signed)).body).toEqual(ok);
  });

  it("refuses an overdraft, moves nothing, and spends the nonce", async () => {
    const { ledger, post, now } = devnet();
    const signed = await sign(alice, usdSend(now(), "1000.00000001"));
    expect((await post("/exchange", signed)).body).toEqual({
      status: "err",
      response: "Insufficient balance for token transfer",
    });
    expect(ledger.perpsBalance(alice.address)).toBe(100_000_000_000n);
    expect(ledger.perpsBalance(bob.address)).toBe(0n);
    expect((await post("/exchange", await sign(alice, usdSend(now(), "1")))).body).toMatchObject({
      response: /duplicate nonce/,
    });
    // More decimals than the token has is refused rather than rounded.
    expect((await post("/exchange", await sign(alice, usdSend(now() + 1, "0.000000001")))).body).toMatchObject({
      status: "err",
      response: /Invalid amount/,
    });
  });

  it("moves perps USDC to a spot account with sendAsset and HYPE with spotSend, each in the ledger with its nonce", async () => {
    const { ledger, post, now } = devnet();
    const sendAsset = {
      type: "sendAsset" as const,
      signatureChainId: "0x66eee" as Hex,
      hyperliquidChain: "Testnet",
      destination: bob.address.toLowerCase(),
      sourceDex: "",
      destinationDex: "spot",
      token: tokenSpec(usdc),
      amount: "2",
      fromSubAccount: "",
      nonce: now(),
    };
    expect((await post("/exchange", await sign(alice, sendAsset))).body).toEqual(ok);
    const spotSend = {
      type: "spotSend" as const,
      signatureChainId: "0x66eee" as Hex,
      hyperliquidChain: "Testnet",
      destination: bob.address.toLowerCase(),
      token: tokenSpec(hype),
      amount: "0.5",
      time: now() + 1,
    };
    expect((await post("/exchange", await sign(alice, spotSend))).body).toEqual(ok);
    expect(ledger.perpsBalance(alice.address)).toBe(99_800_000_000n);
    const spot = await post("/info", { type: "spotClearinghouseState", user: bob.address });
    expect(spot.body).toEqual({
      balances: [
        { coin: "USDC", token: 0, total: "2.0", hold: "0.0", entryNtl: "0.0" },
        { coin: "HYPE", token: 1, total: "0.5", hold: "0.0", entryNtl: "0.0" },
      ],
    });
    const deltas = ledger.updates(bob.address).map((u) => u.delta);
    expect(deltas).toMatchObject([
      {
        type: "send",
        sourceDex: "",
        destinationDex: "spot",
        token: "USDC",
        amount: "2.0",
        usdcValue: "2.0",
        nonce: now(),
      },
      { type: "spotTransfer", token: "HYPE", amount: "0.5", nonce: now() + 1 },
    ]);
    // Perps holds USDC only; unknown dexes, sub-accounts and a name with another token's id are refused.
    const refusals = [
      { ...sendAsset, token: tokenSpec(hype), destinationDex: "", nonce: now() + 2 },
      { ...sendAsset, destinationDex: "xyz", nonce: now() + 3 },
      { ...sendAsset, fromSubAccount: bob.address.toLowerCase(), nonce: now() + 4 },
      { ...sendAsset, token: `USDC:${hype.tokenId}`, nonce: now() + 5 },
    ];
    for (const action of refusals)
      expect((await post("/exchange", await sign(alice, action))).body).toMatchObject({ status: "err" });
    expect(ledger.perpsBalance(alice.address)).toBe(99_800_000_000n);
  });

  it("answers a body it cannot read with HTTP 422, as the exchange does", async () => {
    const { post, now } = devnet();
    const signed = await sign(alice, usdSend(now()));
    for (const body of [
      {},
      { ...signed, action: { ...signed.action, type: "withdraw3" } },
      { ...signed, signature: { ...signed.signature, v: 2 } },
    ]) {
      const res = await post("/exchange", body);
      expect(res).toEqual({
        status: 422,
        type: expect.stringContaining("text/plain"),
        body: "Failed to deserialize the JSON body into the target type",
      });
    }
    expect((await post("/info", { type: "nope" })).status).toBe(422);
  });
});

describe("the devnet exchange's POST /info", () => {
  it("lists USDC and one more spot token with their ids, and pages the ledger by time", async () => {
    const { post, now, tick } = devnet();
    const meta = (await post("/info", { type: "spotMeta" })).body as {
      tokens: Array<{ name: string; tokenId: string; weiDecimals: number }>;
    };
    expect(meta.tokens.map((t) => [t.name, t.tokenId, t.weiDecimals])).toEqual([
      ["USDC", usdc.tokenId, 8],
      ["HYPE", hype.tokenId, 8],
    ]);
    const first = now();
    await post("/exchange", await sign(alice, usdSend(now(), "1")));
    tick(10);
    await post("/exchange", await sign(alice, usdSend(now(), "2")));
    const since = async (startTime: number, endTime?: number) =>
      (
        (await post("/info", { type: "userNonFundingLedgerUpdates", user: bob.address, startTime, endTime }))
          .body as Array<{ delta: { usdc: string } }>
      ).map((u) => u.delta.usdc);
    expect(await since(0)).toEqual(["1.0", "2.0"]);
    expect(await since(first + 1)).toEqual(["2.0"]);
    expect(await since(0, first)).toEqual(["1.0"]);
    expect(
      (await post("/info", { type: "clearinghouseState", user: privateKeyToAccount(generatePrivateKey()).address }))
        .body,
    ).toMatchObject({ withdrawable: "0.0" });
  });
});

describe("the devnet exchange's userRole", () => {
  it("is missing for an account never seen and user once it has received funds", async () => {
    const { post, now } = devnet();
    const fresh = privateKeyToAccount(generatePrivateKey()).address;
    const role = async (user: string) => (await post("/info", { type: "userRole", user })).body;
    expect(await role(fresh)).toEqual({ role: "missing" });
    expect(await role(bob.address)).toEqual({ role: "user" });
    await post("/exchange", await sign(alice, usdSend(now(), "2", { destination: fresh.toLowerCase() })));
    expect(await role(fresh)).toEqual({ role: "user" });
    expect((await post("/info", { type: "userRole", user: "0x12" })).status).toBe(422);
  });
});
