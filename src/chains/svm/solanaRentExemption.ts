/**
 * The rent-exempt minimum of an account without data, in lamports: (128 bytes of account overhead) × 3,480 lamports a
 * byte-year × 2 years, Solana's rent since genesis. A SOL payment opening an account must reach it, or it fails.
 */
export const SOLANA_RENT_EXEMPT_EMPTY_ACCOUNT = 890_880n;
