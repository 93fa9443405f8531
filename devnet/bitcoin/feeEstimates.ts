import type { ChainTx } from "./regtestChain.js";

/** The confirmation targets Esplora answers for. */
export const feeEstimateTargets = [...Array.from({ length: 25 }, (_, i) => i + 1), 144, 504, 1008] as const;

const blockVsize = 1_000_000;
const floorSatPerVbyte = 1;

/**
 * `GET /fee-estimates` from the mempool alone (the devnet has no fee history): for a target of n blocks,
 * the fee rate of the last transaction that would still fit in the next n blocks if everything queued
 * were mined by fee rate, or the 1 sat/vB relay floor when the mempool fits in n blocks.
 */
export function feeEstimates(mempool: ChainTx[]): Record<string, number> {
  const byRate = mempool
    .map((t) => ({ rate: Number(t.fee) / t.vsize, vsize: t.vsize }))
    .sort((a, b) => b.rate - a.rate);
  const estimates: Record<string, number> = {};
  for (const target of feeEstimateTargets) {
    let room = target * blockVsize;
    let rate = floorSatPerVbyte;
    for (const t of byRate) {
      if (t.vsize > room) {
        rate = Math.max(floorSatPerVbyte, t.rate);
        break;
      }
      room -= t.vsize;
    }
    estimates[String(target)] = Math.round(rate * 1000) / 1000;
  }
  return estimates;
}
