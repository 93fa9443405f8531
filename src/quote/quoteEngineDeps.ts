import type { NewRequest } from "../../schema/requests.js";
import type { findRegenerableDepositAddress } from "../../schema/depositAddresses.js";
import type { ChainAdapters } from "../chains/chainAdapters.js";
import type { ChainRegistry } from "../chains/chainRegistry.js";
import type { ChainAvailabilityReader } from "../chains/createChainAvailability.js";
import type { PriceSource } from "../pricing/priceSource.js";
import type { SolverInventory } from "./solverInventory.js";

type RegenerableRoute = Parameters<typeof findRegenerableDepositAddress>[1];

export type QuoteEngineDeps = {
  registry: ChainRegistry;
  adapters: ChainAdapters;
  prices: PriceSource;
  inventory: SolverInventory;
  saveRequest: (request: NewRequest) => Promise<void>;
  settings: {
    serviceFeeBps: bigint;
    defaultSlippageBps: bigint;
    quoteTtlSeconds: number;
    /** OVERPAYMENT_TOLERANCE_BPS (domain default when absent). */
    overpaymentToleranceBps?: bigint;
    /** SPONSORED_APP_FEE_MAX_BPS (domain default when absent). */
    sponsoredAppFeeMaxBps?: bigint;
  };
  availability: ChainAvailabilityReader;
  /** An integrator's fee sponsorship balance, USD micro-units (schema/sponsorLedger). */
  sponsorBalance: (integrator: string) => Promise<bigint>;
  /**
   * Deposit addresses (schema/depositAddresses): a number never handed out before (Bitcoin derives the address of that
   * index), or the address of an expired unpaid request of the same API key on identical terms to regenerate, with
   * its family's key. Absent where nothing is saved (`/price`): no address is handed out.
   */
  depositAddresses?: {
    next(): Promise<number>;
    regenerable(route: RegenerableRoute): Promise<{ requestId: string; address: string; key: string } | undefined>;
  };
  now?: () => number;
};

/**
 * Who asks for the quote: the API key's id and integrator, whether that key may sponsor fees, and its fixed-bps oracle
 * pricing (the operator's setting; absent: normal pricing).
 */
export type QuoteCaller = { apiKeyId?: string; integrator?: string; sponsors?: boolean; oraclePricingBps?: bigint };
