import { describe, expect, it } from "vitest";
import { createMetrics } from "./createMetrics.js";
import { observeSponsorBalances } from "./observeSponsorBalances.js";

describe("observeSponsorBalances", () => {
  it("sets each integrator's balance in USD at the scrape, and nothing when the read fails", async () => {
    const metrics = createMetrics("worker");
    let fail = false;
    observeSponsorBalances(metrics, async () => {
      if (fail) throw new Error("database down");
      return [{ integrator: "acme", balance: 250_500_000n }];
    });
    expect(await metrics.registry.metrics()).toContain(
      'crossfill_sponsor_balance_usd{integrator="acme",role="worker"} 250.5',
    );
    fail = true;
    expect(await metrics.registry.metrics()).not.toContain('integrator="acme"');
  });
});
