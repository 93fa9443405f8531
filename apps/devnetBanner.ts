type BannerManifest = {
  apiUrl: string;
  graphqlUrl: string;
  wsUrl: string;
  dashboardUrl: string;
  apiKey: string | null;
  accounts?: ReadonlyArray<{ address: string }>;
};

/** A devnet chain's manifest entry, with the label its family gives its chains (FamilyFactories `label`). */
export type BannerChain = {
  id?: number;
  name?: string;
  rpcUrl?: string;
  esploraUrl?: string;
  exchangeUrl?: string;
  label: string;
};

/**
 * What `npm start` prints once everything runs: where to go next, one line each (the manifest file holds the
 * rest: contracts, private keys), instead of the whole manifest as JSON.
 */
export function devnetBanner(options: {
  manifest: BannerManifest;
  chains: readonly BannerChain[];
  manifestPath: string;
  queues: string;
  database: string;
  startedInMs: number;
}): string {
  const { manifest, manifestPath } = options;
  const chains = options.chains.map(
    (chain) => `${chain.name} (${chain.id}, ${chain.label}) ${chain.rpcUrl ?? chain.esploraUrl ?? chain.exchangeUrl}`,
  );
  const accounts = manifest.accounts ?? [];
  const rows: Array<[string, string]> = [
    ["API", `${manifest.apiUrl}  (try: curl ${manifest.apiUrl}/chains)`],
    ["explorer", `${manifest.apiUrl}/`],
    ["dashboard", `${manifest.dashboardUrl}  (sign in with the API key)`],
    ["API key", manifest.apiKey ?? "(none)"],
    ["GraphQL", `${manifest.graphqlUrl}  (GraphiQL in a browser)`],
    ["websocket", manifest.wsUrl],
    ["health", `${manifest.apiUrl}/readyz, metrics at ${manifest.apiUrl}/metrics (Prometheus)`],
    ...chains.map((chain, index): [string, string] => [index === 0 ? "chains" : "", chain]),
    [
      "accounts",
      `${accounts.length} funded test accounts, ${accounts
        .slice(0, 2)
        .map((account) => account.address)
        .join(", ")}, … (their keys: the manifest; never use them elsewhere)`,
    ],
    ["manifest", manifestPath],
  ];
  return [
    "",
    `Crossfill devnet is running, started in ${(options.startedInMs / 1000).toFixed(1)} s (queues on ${options.queues}, database ${options.database}).`,
    ...rows.map(([label, value]) => `  ${label.padEnd(10)} ${value}`),
    "",
    "Next: the README's walk-through, or npx tsx examples/bridge.ts (quotes, pays and follows a bridge).",
    "Ctrl-C stops everything.",
    "",
  ].join("\n");
}
