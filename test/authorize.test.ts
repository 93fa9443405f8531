import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CreatedApiKey, createApiKey } from "../src/apiKeys/createApiKey.js";
import { PERPS_CHAIN_ID } from "../src/domain/reservedChainIds.js";
import { insertTestRequest } from "./support/insertTestRequest.js";
import { signNonceMapping } from "./support/signNonceMapping.js";
import { type RestAppStack, startRestApp } from "./support/startRestApp.js";

// Every call of a test falls in one 60 s rate window.
const WINDOW_START = Date.parse("2026-11-23T10:00:00Z");

describe("POST /authorize (perps withdrawal nonce mapping)", () => {
  let stack: RestAppStack;
  let elevated: CreatedApiKey;
  let standard: CreatedApiKey;
  beforeAll(async () => {
    stack = await startRestApp({ now: () => new Date(WINDOW_START + 5_000), trustForwardedFor: true });
    elevated = await createApiKey(stack.pool, stack.serverKey, { name: "desk", integrator: "desk", elevated: true });
    standard = await createApiKey(stack.pool, stack.serverKey, { name: "app", integrator: "app" });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  /** A waiting perps-origin request of a fresh wallet, and the authorize step body and signature for it. */
  const authorizeStep = async (nonce = 1_732_000_000_000n) => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const request = await insertTestRequest(stack.pool, { originChainId: PERPS_CHAIN_ID, user: wallet.address });
    const message = { wallet: wallet.address, depositor: wallet.address, nonce, id: request.id as Hex };
    const body = { type: "nonce-mapping", walletChainId: 1, ...message, nonce: nonce.toString(), signatureChainId: 1 };
    return { wallet, request, body, signature: await signNonceMapping(wallet, message, 1) };
  };
  const post = async (query: string, body: unknown, key?: string, clientAddress = "203.0.113.1") => {
    const response = await fetch(`${stack.url}/authorize${query}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "relay-sdk-version": "7.0.3",
        "x-forwarded-for": clientAddress,
        ...(key ? { "x-api-key": key } : {}),
      },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as any };
  };
  const mappingCount = async () =>
    (await stack.pool.query("SELECT count(*)::int AS n FROM crossfill.nonce_mappings")).rows[0].n as number;

  it("records the mapping as the official client posts it (signature in the query, referrer added to the body)", async () => {
    const step = await authorizeStep();
    const answer = await post(`?signature=${step.signature}`, { ...step.body, referrer: "relay.link" });
    expect(answer).toMatchObject({
      status: 200,
      body: { message: "Nonce mapping authorized", requestId: step.request.id, nonce: "1732000000000" },
    });
    expect(answer.headers.get("ratelimit-policy")).toBe("5;w=60");
    const again = await post(`?signature=${step.signature}`, step.body);
    expect(again).toMatchObject({ status: 200, body: { message: "Nonce mapping already authorized" } });
    const { rows } = await stack.pool.query(
      "SELECT request_id, wallet, nonce::text FROM crossfill.nonce_mappings WHERE request_id = $1",
      [step.request.id],
    );
    expect(rows).toEqual([
      { request_id: step.request.id, wallet: step.wallet.address.toLowerCase(), nonce: "1732000000000" },
    ]);
  });

  it("answers bad input with 400 naming the field, 401 for an unknown key, and writes nothing", async () => {
    const step = await authorizeStep();
    const before = await mappingCount();
    const bad: Array<[string, unknown, RegExp]> = [
      ["", step.body, /^signature:/],
      ["?signature=0x1234", step.body, /^signature:/],
      [`?signature=${step.signature}&extra=1`, step.body, /extra/],
      [`?signature=${step.signature}&signature=${step.signature}`, step.body, /^signature: may be given once/],
      [`?signature=${step.signature}`, "{not json", /valid JSON/],
      [`?signature=${step.signature}`, { ...step.body, type: "gasless" }, /^type:/],
      [`?signature=${step.signature}`, { ...step.body, wallet: "0x123" }, /^wallet:/],
      [`?signature=${step.signature}`, { ...step.body, depositor: undefined }, /^depositor:/],
      [`?signature=${step.signature}`, { ...step.body, nonce: "-1" }, /^nonce:/],
      [`?signature=${step.signature}`, { ...step.body, nonce: (2n ** 256n).toString() }, /^nonce:/],
      [`?signature=${step.signature}`, { ...step.body, nonce: 1.5 }, /^nonce:/],
      [`?signature=${step.signature}`, { ...step.body, id: "0x12" }, /^id:/],
      [`?signature=${step.signature}`, { ...step.body, signatureChainId: "1" }, /^signatureChainId:/],
      [`?signature=${step.signature}`, { ...step.body, walletChainId: 0 }, /^walletChainId:/],
      [`?signature=${step.signature}`, { ...step.body, surprise: true }, /surprise/],
    ];
    for (const [query, body, message] of bad) {
      const answer = await post(query, body);
      expect(answer.status, JSON.stringify([query, body])).toBe(400);
      expect(answer.body).toMatchObject({ errorCode: "INVALID_INPUT", message: expect.stringMatching(message) });
    }
    const wrongNonce = await post(`?signature=${step.signature}`, { ...step.body, nonce: "5" });
    expect(wrongNonce).toMatchObject({ status: 400, body: { errorCode: "INVALID_SIGNATURE" } });
    // Signed on chain 1, posted as signed on another chain: any chain is taken, but the signature must be that chain's.
    const wrongChain = await post(`?signature=${step.signature}`, { ...step.body, signatureChainId: 42161 });
    expect(wrongChain).toMatchObject({ status: 400, body: { errorCode: "INVALID_SIGNATURE" } });
    expect(await post(`?signature=${step.signature}`, step.body, "cf_unknown")).toMatchObject({
      status: 401,
      body: { errorCode: "UNAUTHORIZED" },
    });
    expect(await mappingCount()).toBe(before);
  });

  it("answers 404 for an unknown request and 409 for a nonce already paying another request", async () => {
    const step = await authorizeStep(42n);
    const unknownId = `0x${"ee".repeat(32)}` as Hex;
    const unknown = { ...step.body, id: unknownId };
    const unknownSignature = await signNonceMapping(
      step.wallet,
      { wallet: step.wallet.address, depositor: step.wallet.address, nonce: 42n, id: unknownId },
      1,
    );
    expect(await post(`?signature=${unknownSignature}`, unknown)).toMatchObject({
      status: 404,
      body: { errorCode: "REQUEST_NOT_FOUND" },
    });
    expect((await post(`?signature=${step.signature}`, step.body)).status).toBe(200);
    const second = await insertTestRequest(stack.pool, { originChainId: PERPS_CHAIN_ID, user: step.wallet.address });
    const message = { wallet: step.wallet.address, depositor: step.wallet.address, nonce: 42n, id: second.id as Hex };
    const clash = await post(`?signature=${await signNonceMapping(step.wallet, message, 1)}`, {
      ...step.body,
      id: second.id,
    });
    expect(clash).toMatchObject({ status: 409, body: { errorCode: "NONCE_ALREADY_MAPPED" } });
  });

  it("refuses a mapping of another account's (depositor, nonce), writing nothing; the owner's own mapping then succeeds", async () => {
    const victim = await authorizeStep(1_732_000_000_777n);
    const attacker = privateKeyToAccount(generatePrivateKey());
    const attackersRequest = await insertTestRequest(stack.pool, {
      originChainId: PERPS_CHAIN_ID,
      user: attacker.address,
    });
    // The attacker signs, as the wallet of their own request, that the victim's next transfer pays that request.
    const message = {
      wallet: attacker.address,
      depositor: victim.wallet.address,
      nonce: 1_732_000_000_777n,
      id: attackersRequest.id as Hex,
    };
    const before = await mappingCount();
    const attack = await post(`?signature=${await signNonceMapping(attacker, message, 1)}`, {
      ...victim.body,
      wallet: attacker.address,
      id: attackersRequest.id,
    });
    expect(attack.status).toBe(403);
    expect(attack.body).toMatchObject({ errorCode: "FORBIDDEN", message: expect.stringMatching(/^depositor:/) });
    expect(await mappingCount()).toBe(before);
    // The victim's own mapping of that nonce is not blocked.
    expect(await post(`?signature=${victim.signature}`, victim.body)).toMatchObject({
      status: 200,
      body: { message: "Nonce mapping authorized", requestId: victim.request.id },
    });
  });

  it("limits an elevated key to 5 calls per 60 s per wallet and 30 per 60 s in all, with Retry-After", async () => {
    const steps = await Promise.all(Array.from({ length: 7 }, () => authorizeStep()));
    // The first wallet spends its 5; its 6th call is refused while other wallets still pass.
    for (let call = 1; call <= 5; call += 1) {
      const answer = await post(`?signature=${steps[0].signature}`, steps[0].body, elevated.key);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("ratelimit")).toBe(`limit=5, remaining=${5 - call}, reset=55`);
    }
    const sixth = await post(`?signature=${steps[0].signature}`, steps[0].body, elevated.key);
    expect(sixth).toMatchObject({
      status: 429,
      body: { errorCode: "RATE_LIMITED", message: expect.stringContaining("5 requests per 60 s") },
    });
    expect(sixth.headers.get("retry-after")).toBe("55");
    expect(sixth.headers.get("ratelimit-policy")).toBe("5;w=60");
    // 25 more calls over five other wallets reach the key's 30; calls that fail later (a bad signature) count too.
    for (const step of steps.slice(1, 6)) {
      for (let call = 0; call < 5; call += 1) {
        const signature = call === 4 ? `0x${"11".repeat(65)}` : step.signature;
        expect((await post(`?signature=${signature}`, step.body, elevated.key)).status).toBe(call === 4 ? 400 : 200);
      }
    }
    const overall = await post(`?signature=${steps[6].signature}`, steps[6].body, elevated.key);
    expect(overall).toMatchObject({ status: 429, body: { message: expect.stringContaining("30 requests per 60 s") } });
    expect(overall.headers.get("ratelimit-policy")).toBe("30;w=60");
    // Counters are per key: the same wallet through another key, or keyless, is counted apart.
    expect((await post(`?signature=${steps[6].signature}`, steps[6].body, standard.key)).status).toBe(200);
    expect((await post(`?signature=${steps[6].signature}`, steps[6].body)).status).toBe(200);
  });

  it("keeps the documented limits for standard keys and keyless callers (20 and 10 per 60 s in all)", async () => {
    const steps = await Promise.all(Array.from({ length: 5 }, () => authorizeStep()));
    const answeredBeforeLimit = async (key: string | undefined, clientAddress: string) => {
      let answered = 0;
      for (const step of steps) {
        for (let call = 0; call < 5; call += 1) {
          const answer = await post(`?signature=${step.signature}`, step.body, key, clientAddress);
          if (answer.status === 429) break;
          answered += 1;
        }
      }
      return answered;
    };
    // One call of the previous test already counted against the standard key.
    expect(await answeredBeforeLimit(standard.key, "203.0.113.2")).toBe(19);
    expect(await answeredBeforeLimit(undefined, "203.0.113.3")).toBe(10);
    // Keyless callers are counted by address: another address starts afresh.
    expect((await post(`?signature=${steps[4].signature}`, steps[4].body, undefined, "203.0.113.4")).status).toBe(200);
  });
});
