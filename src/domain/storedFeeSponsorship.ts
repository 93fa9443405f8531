export type SponsorshipPhase = Record<string, unknown> & {
  selectedComponents?: string[];
  components?: Record<string, unknown>;
  sponsorPayment?: Record<string, unknown>;
};

/** A quote's `feeSponsorship` as it answered it: the quoted phase, and the actual one with the sponsor's payment. */
export type FeeSponsorship = { quoted: SponsorshipPhase; actual: SponsorshipPhase };

/**
 * What a request row keeps of its quote's fee sponsorship. `actual` is the quoted phase plus `sponsorPayment`, so only
 * the payment is kept beside it: the two phases were 10 of a quote row's 16 kB, and every quote writes one.
 */
export type StoredFeeSponsorship = { quoted: SponsorshipPhase; sponsorPayment?: Record<string, unknown> };

export function toStoredFeeSponsorship(sponsorship: FeeSponsorship): StoredFeeSponsorship {
  return { quoted: sponsorship.quoted, sponsorPayment: sponsorship.actual.sponsorPayment };
}

/** The quote's two phases from a stored row; rows stored before the compact form keep both phases whole. */
export function readStoredFeeSponsorship(stored: unknown): Partial<FeeSponsorship> | undefined {
  if (!stored || typeof stored !== "object") return undefined;
  const { quoted, actual, sponsorPayment } = stored as Partial<FeeSponsorship> & StoredFeeSponsorship;
  if (actual || !quoted) return { quoted, actual };
  return { quoted, actual: sponsorPayment ? { ...quoted, sponsorPayment } : quoted };
}
