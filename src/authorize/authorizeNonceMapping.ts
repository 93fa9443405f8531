import type { Address, Hex } from "viem";
import { type NonceMapping, findNonceMapping, insertNonceMapping } from "../../schema/nonceMappings.js";
import { getRequest } from "../../schema/requests.js";
import type { Queryable } from "../../schema/queryable.js";
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError } from "../domain/errors.js";
import { nonceMappingTypedData } from "../domain/nonceMappingTypedData.js";
import { computeRequestId } from "../domain/order.js";
import { PERPS_CHAIN_ID } from "../domain/reservedChainIds.js";
import { recoverTypedDataSigner } from "../chains/evm/recoverTypedDataSigner.js";

export type NonceMappingAuthorization = {
  wallet: Address;
  depositor: Address;
  nonce: bigint;
  /** The order (or request) id the transfer will belong to. */
  id: Hex;
  walletChainId: number;
  signatureChainId: number;
  signature: Hex;
  apiKeyId: string | null;
};

// The exchange's accounts sign EIP-712 like any EVM wallet.
async function recoverSigner(authorization: NonceMappingAuthorization): Promise<string> {
  const { wallet, depositor, nonce, id, signatureChainId, signature } = authorization;
  try {
    return await recoverTypedDataSigner(
      nonceMappingTypedData({ wallet, depositor, nonce, id }, signatureChainId),
      signature,
    );
  } catch (cause) {
    throw new InvalidInputError(
      "INVALID_SIGNATURE",
      `signature: not a valid secp256k1 signature (${(cause as Error).message.split("\n")[0]})`,
    );
  }
}

const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * The `authorize` step of a perps-exchange withdrawal: the request's user signs that their own exchange transfer
 * with `nonce` pays request `id`. `depositor` must be the signing wallet: nothing proves a wallet speaks for another
 * account, and a mapping of someone else's (depositor, nonce) would route their transfer to the signer's request.
 * Recorded once per (wallet, depositor, nonce); posting the same mapping again answers the stored one, so a client
 * may retry freely.
 */
export async function authorizeNonceMapping(
  db: Queryable,
  authorization: NonceMappingAuthorization,
): Promise<{ mapping: NonceMapping; created: boolean }> {
  const signer = await recoverSigner(authorization);
  if (!sameAddress(signer, authorization.wallet)) {
    throw new InvalidInputError(
      "INVALID_SIGNATURE",
      `signature: signed by ${signer}, not by wallet ${authorization.wallet}`,
    );
  }
  if (!sameAddress(authorization.depositor, authorization.wallet))
    throw new ForbiddenError(
      `depositor: ${authorization.depositor} is not the signing wallet ${authorization.wallet}; a wallet maps only its own transfers`,
    );
  // `id` is the order's id, as the quote's authorize step names it (`protocol.v2.orderId`), or its request id.
  const id = authorization.id.toLowerCase();
  const request = (await getRequest(db, id)) ?? (await getRequest(db, computeRequestId(id as Hex)));
  if (!request) throw new NotFoundError("REQUEST_NOT_FOUND", `no request or order ${id} was found`);
  const requestId = request.id;
  if (request.originChainId !== PERPS_CHAIN_ID) {
    throw new InvalidInputError(
      "UNSUPPORTED_ROUTE",
      `id: nonce mappings are for withdrawals from the perps exchange chain (${PERPS_CHAIN_ID}); request ${requestId} starts on chain ${request.originChainId}`,
    );
  }
  if (!sameAddress(request.user, authorization.wallet))
    throw new ForbiddenError(`wallet: ${authorization.wallet} is not the user of request ${requestId}`);

  const { depositor, nonce, wallet, walletChainId, signatureChainId, signature, apiKeyId } = authorization;
  const created = await insertNonceMapping(db, {
    depositor,
    nonce,
    requestId,
    wallet,
    walletChainId,
    signatureChainId,
    signature,
    apiKeyId,
  });
  if (created) return { mapping: created, created: true };
  const existing = await findNonceMapping(db, { wallet, depositor, nonce });
  if (existing?.requestId === requestId) return { mapping: existing, created: false };
  if (existing)
    throw new ConflictError("NONCE_ALREADY_MAPPED", `nonce ${nonce} of ${depositor} already pays another request`);
  throw new ConflictError(
    "REQUEST_NOT_WAITING",
    `request ${requestId} is ${request.status}; nonces can be authorized only while it is waiting`,
  );
}
