import { z } from "zod";
import { formatExchangeAmount } from "../../src/chains/hypevm/exchangeAmount.js";
import { PERPS_USDC_DECIMALS } from "./exchangeTokens.js";
import type { ExchangeLedger } from "./exchangeLedger.js";

/** Most ledger updates one `userNonFundingLedgerUpdates` answer holds; callers page on by time. */
export const LEDGER_PAGE = 500;

const user = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const time = z.number().int().nonnegative();
const infoRequest = z.discriminatedUnion("type", [
  z.object({ type: z.literal("clearinghouseState"), user, dex: z.string().optional() }),
  z.object({ type: z.literal("spotClearinghouseState"), user }),
  z.object({ type: z.literal("spotMeta") }),
  z.object({ type: z.literal("userRole"), user }),
  z.object({ type: z.literal("userNonFundingLedgerUpdates"), user, startTime: time, endTime: time.nullish() }),
]);

/**
 * Answers a `POST /info` body from the ledger, in the exchange's shapes; undefined for a body it does not know
 * (the exchange answers those with HTTP 422). The devnet has no positions, so an account's value, raw USD and
 * withdrawable are its perps USDC.
 */
export function exchangeInfo(ledger: ExchangeLedger, body: unknown, now: number): unknown {
  const parsed = infoRequest.safeParse(body);
  if (!parsed.success) return undefined;
  const request = parsed.data;
  switch (request.type) {
    case "clearinghouseState": {
      // Only the main dex exists on the devnet: any other is empty.
      const usd = formatExchangeAmount(request.dex ? 0n : ledger.perpsBalance(request.user), PERPS_USDC_DECIMALS);
      const summary = { accountValue: usd, totalNtlPos: "0.0", totalRawUsd: usd, totalMarginUsed: "0.0" };
      return {
        marginSummary: summary,
        crossMarginSummary: summary,
        crossMaintenanceMarginUsed: "0.0",
        withdrawable: usd,
        assetPositions: [],
        time: now,
      };
    }
    case "spotClearinghouseState":
      return {
        balances: ledger.spotBalances(request.user).map(({ token, amount }) => ({
          coin: token.name,
          token: token.index,
          total: formatExchangeAmount(amount, token.weiDecimals),
          hold: "0.0",
          entryNtl: "0.0",
        })),
      };
    // The devnet has no agents, vaults or sub-accounts: an account is a user once it has held funds.
    case "userRole":
      return { role: ledger.isKnown(request.user) ? "user" : "missing" };
    case "spotMeta": {
      const [usdc, ...others] = ledger.tokens;
      return {
        universe: others.map((t, i) => ({
          tokens: [t.index, usdc!.index],
          name: `@${i + 1}`,
          index: i + 1,
          isCanonical: false,
        })),
        tokens: ledger.tokens.map((t) => ({
          name: t.name,
          szDecimals: t.szDecimals,
          weiDecimals: t.weiDecimals,
          index: t.index,
          tokenId: t.tokenId,
          isCanonical: t.index === 0,
          evmContract: null,
          fullName: null,
          deployerTradingFeeShare: "0.0",
        })),
      };
    }
    case "userNonFundingLedgerUpdates": {
      const end = request.endTime ?? now;
      return ledger
        .updates(request.user)
        .filter((u) => u.time >= request.startTime && u.time <= end)
        .slice(0, LEDGER_PAGE);
    }
  }
}
