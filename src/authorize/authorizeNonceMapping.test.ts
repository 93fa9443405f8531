import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { findNonceMapping } from "../../schema/nonceMappings.js";
import { insertTestRequest } from "../../test/support/insertTestRequest.js";
import { signNonceMapping } from "../../test/support/signNonceMapping.js";
import { useMigratedDatabase } from "../../test/support/useMigratedDatabase.js";
import { PERPS_CHAIN_ID } from "../domain/reservedChainIds.js";
import { type NonceMappingAuthorization, authorizeNonceMapping } from "./authorizeNonceMapping.js";

const user = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
const stranger = privateKeyToAccount("0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a");

describe("authorizeNonceMapping on Postgres", () => {
  const database = useMigratedDatabase({ max: 2 });

  const perpsRequest = (overrides = {}) =>
    insertTestRequest(database.pool, { originChainId: PERPS_CHAIN_ID, user: user.address, ...overrides });
  const authorization = async (
    id: string,
    nonce: bigint,
    signer = user,
    wallet = user.address,
    depositor = wallet,
  ): Promise<NonceMappingAuthorization> => {
    const message = { wallet, depositor, nonce, id: id as Hex };
    return {
      ...message,
      walletChainId: 42161,
      signatureChainId: 42161,
      signature: await signNonceMapping(signer, message, 42161),
      apiKeyId: null,
    };
  };
  const own = (nonce: bigint) => ({ wallet: user.address, depositor: user.address, nonce });
  const mappingCount = async () =>
    (await database.pool.query("SELECT count(*)::int AS n FROM crossfill.nonce_mappings")).rows[0].n as number;

  it("records the mapping once and answers a repeat with the stored one", async () => {
    const request = await perpsRequest();
    const input = await authorization(request.id, 1_732_000_000_001n);
    const first = await authorizeNonceMapping(database.pool, input);
    expect(first).toMatchObject({
      created: true,
      mapping: {
        requestId: request.id,
        depositor: user.address.toLowerCase(),
        nonce: 1_732_000_000_001n,
        signatureChainId: 42161,
      },
    });
    const again = await authorizeNonceMapping(database.pool, {
      ...input,
      id: request.id.toUpperCase().replace("0X", "0x") as Hex,
    });
    expect(again).toMatchObject({ created: false, mapping: { requestId: request.id } });
    const shouted = user.address.toUpperCase().replace("0X", "0x");
    expect(
      await findNonceMapping(database.pool, { wallet: shouted, depositor: shouted, nonce: 1_732_000_000_001n }),
    ).toMatchObject({ requestId: request.id });
  });

  it("refuses a nonce that already pays another request", async () => {
    const [a, b] = [await perpsRequest(), await perpsRequest()];
    await authorizeNonceMapping(database.pool, await authorization(a.id, 7n));
    await expect(authorizeNonceMapping(database.pool, await authorization(b.id, 7n))).rejects.toMatchObject({
      errorCode: "NONCE_ALREADY_MAPPED",
      status: 409,
    });
    expect((await findNonceMapping(database.pool, own(7n)))?.requestId).toBe(a.id);
  });

  it("refuses signatures by anyone but the wallet, and wallets other than the request's user, writing nothing", async () => {
    const request = await perpsRequest();
    const before = await mappingCount();
    const signedByStranger = await authorization(request.id, 8n, stranger);
    await expect(authorizeNonceMapping(database.pool, signedByStranger)).rejects.toMatchObject({
      errorCode: "INVALID_SIGNATURE",
      status: 400,
    });
    const strangersOwn = await authorization(request.id, 8n, stranger, stranger.address);
    await expect(authorizeNonceMapping(database.pool, strangersOwn)).rejects.toMatchObject({
      errorCode: "FORBIDDEN",
      status: 403,
      message: expect.stringMatching(/^wallet:/),
    });
    // A wallet speaks only for its own transfers: the user's signature over a stranger's depositor maps nothing.
    const strangersTransfer = await authorization(request.id, 8n, user, user.address, stranger.address);
    await expect(authorizeNonceMapping(database.pool, strangersTransfer)).rejects.toMatchObject({
      errorCode: "FORBIDDEN",
      status: 403,
      message: expect.stringMatching(/^depositor:/),
    });
    const garbled = { ...(await authorization(request.id, 8n)), signature: `0x${"00".repeat(65)}` as Hex };
    await expect(authorizeNonceMapping(database.pool, garbled)).rejects.toMatchObject({
      errorCode: "INVALID_SIGNATURE",
    });
    const otherChain = { ...(await authorization(request.id, 8n)), signatureChainId: 1 };
    await expect(authorizeNonceMapping(database.pool, otherChain)).rejects.toMatchObject({
      errorCode: "INVALID_SIGNATURE",
    });
    expect(await mappingCount()).toBe(before);
  });

  it("lets a row another wallet recorded for the user's depositor (before depositors were bound) block nothing", async () => {
    const [strangers, users] = [await perpsRequest({ user: stranger.address }), await perpsRequest()];
    await database.pool.query(
      `INSERT INTO crossfill.nonce_mappings (depositor, nonce, request_id, wallet, wallet_chain_id, signature_chain_id, signature)
       VALUES (lower($1), 11, $2, lower($3), 1, 1, '0x')`,
      [user.address, strangers.id, stranger.address],
    );
    expect(await authorizeNonceMapping(database.pool, await authorization(users.id, 11n))).toMatchObject({
      created: true,
      mapping: { requestId: users.id },
    });
    expect((await findNonceMapping(database.pool, own(11n)))?.requestId).toBe(users.id);
  });

  it("maps only waiting requests that start on the perps chain", async () => {
    await expect(
      authorizeNonceMapping(database.pool, await authorization(`0x${"11".repeat(32)}`, 9n)),
    ).rejects.toMatchObject({ errorCode: "REQUEST_NOT_FOUND", status: 404 });
    const evm = await insertTestRequest(database.pool, { user: user.address });
    await expect(authorizeNonceMapping(database.pool, await authorization(evm.id, 9n))).rejects.toMatchObject({
      errorCode: "UNSUPPORTED_ROUTE",
      status: 400,
    });
    const deposited = await perpsRequest();
    await database.pool.query("UPDATE crossfill.requests SET status = 'pending' WHERE id = $1", [deposited.id]);
    await expect(authorizeNonceMapping(database.pool, await authorization(deposited.id, 9n))).rejects.toMatchObject({
      errorCode: "REQUEST_NOT_WAITING",
      status: 409,
    });
    expect(await findNonceMapping(database.pool, own(9n))).toBeUndefined();
  });
});
