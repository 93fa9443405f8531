/**
 * The import rules of shared/DESIGN.md, checked in CI (`npm run check:boundaries`). Paths are relative to the
 * repository root. Tests (`*.test.ts`, test/) and the benchmarks may reach anything: they drive real chains.
 */
const CHAIN_SDKS =
  "(^|/)node_modules/(viem|bitcoinjs-lib|ecpair|bip32|@bitcoinerlab/secp256k1|tiny-secp256k1|@solana/[^/]+|litesvm|@ton/[^/]+)/";
const TESTS = "(\\.test\\.ts$|^test/|^bench/)";
// The composition roots (apps/: the CLI, its roles and operator commands) start the gateway, the schema printer reads
// it and the web build runs its bundler; nothing else may depend on it.
const COMPOSITION_ROOTS = "^(apps/|scripts/(printGraphqlSchema|buildWeb)\\.ts$)";

module.exports = {
  forbidden: [
    {
      name: "nothing-imports-the-gateway",
      comment: "src/gateway serves clients; only the composition roots (apps/) and tests start it.",
      severity: "error",
      from: { pathNot: [`^src/gateway/`, COMPOSITION_ROOTS, TESTS] },
      to: { path: "^src/gateway/" },
    },
    {
      name: "indexers-record-facts-only",
      comment:
        "Indexers import only fact and cursor writers (and the new-facts notice) in schema/, contract ABIs, chain config, the VM families (address formats, native ids) and the shared loop helpers: no jobs, gateway, quote or app-table writers.",
      severity: "error",
      from: { path: "^indexers/", pathNot: TESTS },
      to: {
        path: "^(jobs|src|schema)/",
        pathNot: [
          "^schema/(chainFacts|chainFactsNotices|pollerCursors|onchain|withTransaction)\\.ts$",
          // The heads an indexer reached (indexers/recordIndexerHeads.ts), so the gateway can tell a stalled chain.
          "^schema/chainHeads\\.ts$",
          // Which deposit addresses a Bitcoin poller watches (indexers/bitcoinPollerChains.ts): it reads them only.
          "^schema/depositAddresses\\.ts$",
          "^src/chains/chainConfig\\.ts$",
          "^src/chains/[a-z]+/[a-z]+Family\\.ts$",
          // How an Esplora transaction reads as facts: the poller and the adapter's manual index must agree.
          "^src/chains/bitcoin/(esploraTxFacts|parseDepositMemo|createEsploraClient)\\.ts$",
          // How a receipt reads as deposit facts: the head watcher, Ponder and the manual index must agree.
          "^src/chains/evm/depositFactsOfReceipt\\.ts$",
          // How the perps exchange's API and ledger read as transfers: its poller and its adapter must agree.
          // and the id a transfer of the service's is stored under until the exchange names it.
          "^src/chains/hypevm/(exchangeAmount|exchangeApi|exchangeLedgerFacts|ledgerTransfer|exchangeTransferId)\\.ts$",
          // How a landed Solana transaction reads as deposit, fill and refund facts: the poller and the adapter must agree.
          "^src/chains/svm/svm(Deposit|Fill|Withdrawal)Facts\\.ts$",
          "^src/runtime/",
          // A position in a chain's order (a cursor, a head) as the facts carry it: exact past 2^53.
          "^src/domain/factPosition\\.ts$",
        ],
      },
    },
    {
      name: "schema-imports-no-jobs-or-gateway",
      severity: "error",
      from: { path: "^schema/", pathNot: TESTS },
      to: { path: "^(jobs|src/gateway|src/quote|apps|indexers)/" },
    },
    {
      name: "src-imports-no-jobs-or-indexers",
      comment:
        "src/ is the foundation jobs/ and indexers/ build on; their wiring lives beside them (jobs/startWorker.ts, indexers/startPollers.ts) and apps/ composes the processes.",
      severity: "error",
      from: { path: "^src/", pathNot: TESTS },
      to: { path: "^(jobs|indexers)/" },
    },
    {
      name: "nothing-imports-the-composition",
      comment: "apps/ (the CLI, the dev role, the operator commands) is the roof: only tests may import it.",
      severity: "error",
      from: { pathNot: ["^apps/", TESTS] },
      to: { path: "^apps/" },
    },
    {
      name: "domain-imports-nothing-of-ours",
      comment: "src/domain is pure: it imports only itself and npm packages.",
      severity: "error",
      from: { path: "^src/domain/", pathNot: TESTS },
      to: {
        path: "^(?!src/domain/)[^/]+/",
        dependencyTypesNot: ["npm", "npm-dev", "npm-optional", "npm-peer", "core"],
      },
    },
    {
      name: "chain-sdks-only-in-adapters",
      comment:
        "Clients, wallets, signing and transactions of a chain family live in src/chains/<vm>/ (and indexers, devnet, contracts). Pure encoding/hashing helpers may serve src/domain.",
      severity: "error",
      from: {
        pathNot: [
          "^src/chains/[^/]+/",
          "^src/domain/",
          "^(indexers|devnet|contracts|scripts|examples)/",
          "^ponder\\.config\\.ts$",
          TESTS,
        ],
      },
      // A type (a hex string's shape) does not talk to a chain; clients, wallets and signing do.
      to: { path: CHAIN_SDKS, dependencyTypesNot: ["type-only"] },
    },
    {
      name: "devnet-bitcoin-stays-devnet",
      comment:
        "devnet/bitcoin/ is a stand-in for a real Esplora: only the devnet, the family's devnet starter (apps/families/, which the dev role runs), tests and benchmarks may use it.",
      severity: "error",
      from: { pathNot: ["^devnet/", "^apps/families/", TESTS] },
      to: { path: "^devnet/bitcoin/" },
    },
    {
      name: "devnet-hypevm-stays-devnet",
      comment:
        "devnet/hypevm/ is a stand-in for the perps exchange's API: only the devnet, the family's devnet starter (apps/families/), tests and benchmarks may use it.",
      severity: "error",
      from: { pathNot: ["^devnet/", "^apps/families/", TESTS] },
      to: { path: "^devnet/hypevm/" },
    },
    {
      name: "chain-families-reach-postgres-through-ports",
      comment:
        "A chain family writes Postgres only through the ports schema/ implements and the callers hand it (the fill ledger, src/chains/fillLedger.ts): no src/chains/<vm>/ file imports schema/, so no family re-implements store-before-broadcast, locks or nonces.",
      severity: "error",
      from: { path: "^src/chains/[^/]+/", pathNot: TESTS },
      to: { path: "^schema/" },
    },
    {
      name: "no-circular",
      comment:
        "Imports run one way, within a layer too: a circle means a type or a helper sits in the wrong module; move it to the module it belongs to (as src/chains/vmFamily.ts and familyOfChain.ts were).",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "web-imports-nothing-of-ours",
      severity: "error",
      from: { path: "^web/" },
      to: { path: "^(src|schema|jobs|indexers|devnet|contracts)/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(\\.ponder|\\.devnet|generated)/|^web/dist/" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
  },
};
