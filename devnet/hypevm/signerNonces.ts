/** The exchange keeps each signer's 100 highest nonces. */
export const KEPT_NONCES = 100;
/** A nonce (milliseconds) must lie within (now − 2 days, now + 1 day), the exchange's window. */
export const NONCE_PAST_MS = 2 * 24 * 3600 * 1000;
export const NONCE_FUTURE_MS = 24 * 3600 * 1000;

export type SignerNonces = {
  /** Why this signer may not use this nonce now, in the exchange's words; undefined when it may. */
  refusal(signer: string, nonce: number): string | undefined;
  /** Marks a nonce used (call only after `refusal` said none). */
  use(signer: string, nonce: number): void;
};

/**
 * The exchange's replay rule instead of a sequence number: a nonce is never used twice by a signer, is newer than
 * the smallest of the signer's 100 highest, and is a time in milliseconds near now.
 */
export function createSignerNonces(now: () => number): SignerNonces {
  // Ascending, at most KEPT_NONCES long, per lowercased signer.
  const kept = new Map<string, number[]>();
  return {
    refusal(signer, nonce) {
      const t = now();
      if (nonce <= t - NONCE_PAST_MS || nonce >= t + NONCE_FUTURE_MS)
        return `Invalid nonce: nonce ${nonce} is outside the allowed window around the current time ${t}`;
      const used = kept.get(signer.toLowerCase()) ?? [];
      if (used.includes(nonce)) return `Invalid nonce: duplicate nonce ${nonce}`;
      if (used.length >= KEPT_NONCES && nonce <= used[0]!)
        return `Invalid nonce: nonce ${nonce} is not larger than the smallest of the last ${KEPT_NONCES} nonces (${used[0]})`;
      return undefined;
    },
    use(signer, nonce) {
      const key = signer.toLowerCase();
      const used = kept.get(key) ?? [];
      const at = used.findIndex((n) => n > nonce);
      used.splice(at === -1 ? used.length : at, 0, nonce);
      if (used.length > KEPT_NONCES) used.shift();
      kept.set(key, used);
    },
  };
}
