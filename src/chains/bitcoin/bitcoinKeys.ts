import { z } from "zod";

/**
 * Bitcoin's keys, read from the environment once (src/config.ts parseFamilyKeys) under the operators' variable names.
 * Which role holds which of them is the family's factories' word (apps/families/bitcoinFactories.ts).
 */
export const bitcoinKeySchema = z
  .object({
    /**
     * WIF of the Bitcoin depository's key (P2WPKH): the worker signs refunds of Bitcoin deposits with it. Without it
     * they wait for an operator (MANUAL_REFUND_REQUIRED).
     */
    BITCOIN_DEPOSITORY_WIF: z.string().min(1).optional(),
    /**
     * WIF of the Bitcoin solver's wallet key (P2WPKH, the chain's `solver` address): the worker pays EVM → BTC fills
     * from it. Without it Bitcoin fills are refused (quotes need only the chain's `solver` address).
     */
    BITCOIN_SOLVER_WIF: z.string().min(1).optional(),
    /**
     * Deposit addresses (`useDepositAddress`, Bitcoin origin): the BIP84 account's extended public key (xpub on
     * mainnet, tpub on testnet/regtest; the key of m/84'/0'/0' or m/84'/1'/0'), from which the gateway derives one
     * P2WPKH address per request (child 0/index). Without it deposit-address quotes are refused (UNSUPPORTED_ROUTE).
     */
    BITCOIN_DEPOSIT_XPUB: z.string().min(1).optional(),
    /**
     * The same account's extended private key (xprv/tprv), for the worker only: it sweeps deposit addresses to the
     * depository and refunds from them. Never logged; without it their deposits are filled but not swept.
     */
    BITCOIN_DEPOSIT_XPRV: z.string().min(1).optional(),
    /**
     * The most sat/vB a Bitcoin fee read from Esplora may be (payouts, bumps, sweeps, refunds, deposit PSBTs): a higher
     * estimate is paid at this rate. A chain's own `maxFeeRateSatVb` in the chains file wins; unset, the adapter's
     * default (500, DEFAULT_MAX_FEE_RATE_SAT_VB).
     */
    BITCOIN_MAX_FEE_RATE_SAT_VB: z.coerce.number().min(1).optional(),
  })
  .transform((env) => ({
    depositoryWif: env.BITCOIN_DEPOSITORY_WIF,
    solverWif: env.BITCOIN_SOLVER_WIF,
    depositXpub: env.BITCOIN_DEPOSIT_XPUB,
    depositXprv: env.BITCOIN_DEPOSIT_XPRV,
    maxFeeRateSatVb: env.BITCOIN_MAX_FEE_RATE_SAT_VB,
  }));

export type BitcoinKeys = z.output<typeof bitcoinKeySchema>;
