import { z } from "zod";

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const nonce = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const common = {
  signatureChainId: z.string().regex(/^0x[0-9a-fA-F]{1,16}$/),
  hyperliquidChain: z.string(),
  destination: address,
  amount: z.string(),
};

const action = z.discriminatedUnion("type", [
  z.object({ type: z.literal("usdSend"), ...common, time: nonce }),
  z.object({ type: z.literal("spotSend"), ...common, token: z.string(), time: nonce }),
  z.object({
    type: z.literal("sendAsset"),
    ...common,
    sourceDex: z.string(),
    destinationDex: z.string(),
    token: z.string(),
    fromSubAccount: z.string(),
    nonce,
  }),
]);

// r and s as hex of up to 32 bytes: the Python SDK writes them without leading zeros.
const word = z.string().regex(/^0x[0-9a-fA-F]{1,64}$/);
const request = z.object({
  action,
  nonce,
  signature: z.object({ r: word, s: word, v: z.union([z.literal(27), z.literal(28)]) }),
  vaultAddress: address.nullish(),
  expiresAfter: z.number().int().nullish(),
});

export type UserSignedAction = z.infer<typeof action>;
export type ExchangeRequest = z.infer<typeof request>;

/**
 * Reads a `POST /exchange` body of a user-signed transfer. Undefined for anything else; the exchange answers that
 * with HTTP 422, as it does for a body it cannot deserialize.
 */
export function parseExchangeRequest(body: unknown): ExchangeRequest | undefined {
  const parsed = request.safeParse(body);
  return parsed.success ? parsed.data : undefined;
}

/** The nonce a user-signed action carries in its signed fields. */
export const actionNonce = (a: UserSignedAction): number => (a.type === "sendAsset" ? a.nonce : a.time);
