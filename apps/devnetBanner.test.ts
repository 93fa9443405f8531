import { describe, expect, it } from "vitest";
import { devnetBanner } from "./devnetBanner.js";

describe("devnetBanner", () => {
  it("names every chain, the explorer, the key and the example, one line each, without the accounts' keys", () => {
    const privateKey = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
    const banner = devnetBanner({
      manifest: {
        apiUrl: "http://127.0.0.1:4000",
        graphqlUrl: "http://127.0.0.1:4000/graphql",
        wsUrl: "ws://127.0.0.1:4000/ws",
        dashboardUrl: "http://127.0.0.1:4000/explorer/dashboard",
        apiKey: "cf_devnet",
        accounts: [{ address: "0x7099", privateKey } as { address: string }, { address: "0x3C44" }],
      },
      // Each labelled by its family (FamilyFactories `label`), whatever its manifest entry holds.
      chains: [
        { id: 31337, name: "devnet-a", rpcUrl: "http://127.0.0.1:8545", label: "EVM" },
        { id: 8253038, name: "bitcoin-regtest", esploraUrl: "http://127.0.0.1:39001", label: "Bitcoin, Esplora" },
        { id: 792703809, name: "solana-devnet", rpcUrl: "http://127.0.0.1:39100", label: "Solana" },
        { id: 1337, name: "hyperliquid", exchangeUrl: "http://127.0.0.1:39200", label: "perps exchange API" },
      ],
      manifestPath: "/clone/.devnet/manifest.json",
      queues: "postgres",
      database: "embedded",
      startedInMs: 16_240,
    });
    expect(banner).toContain("Crossfill devnet is running, started in 16.2 s (queues on postgres, database embedded).");
    expect(banner).toMatch(/^ {2}explorer {3}http:\/\/127\.0\.0\.1:4000\/$/m);
    expect(banner).toMatch(/^ {2}API key {4}cf_devnet$/m);
    expect(banner).toMatch(/^ {2}chains {5}devnet-a \(31337, EVM\) http:\/\/127\.0\.0\.1:8545$/m);
    expect(banner).toMatch(/^ {13}bitcoin-regtest \(8253038, Bitcoin, Esplora\) http:\/\/127\.0\.0\.1:39001$/m);
    expect(banner).toMatch(
      /^ {2}health {5}http:\/\/127\.0\.0\.1:4000\/readyz, metrics at http:\/\/127\.0\.0\.1:4000\/metrics/m,
    );
    expect(banner).toMatch(/^ {13}solana-devnet \(792703809, Solana\) http:\/\/127\.0\.0\.1:39100$/m);
    expect(banner).toMatch(/^ {13}hyperliquid \(1337, perps exchange API\) http:\/\/127\.0\.0\.1:39200$/m);
    expect(banner).toContain("npx tsx examples/bridge.ts");
    expect(banner).not.toContain(privateKey);
    expect(banner.trimEnd().split("\n").at(-1)).toBe("Ctrl-C stops everything.");
    expect(banner.split("\n").length).toBeLessThan(25);
  });
});
