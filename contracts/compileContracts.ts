import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import solc from "solc";

export type CompiledContract = {
  name: string;
  sourceFile: string;
  abi: unknown[];
  bytecode: `0x${string}`;
};

export const contractsDir = fileURLToPath(new URL(".", import.meta.url));

// cancun: accepted by anvil 1.7 (default prague) and by every chain we would deploy to.
export const compilerSettings = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: "cancun",
  // No metadata hash: a comment-only edit then leaves the bytecode (and the committed artifacts) unchanged.
  metadata: { bytecodeHash: "none" },
  outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"], "": ["ast"] } },
} as const;

type SolcError = { severity: "error" | "warning" | "info"; formattedMessage: string };
type SolcOutput = {
  errors?: SolcError[];
  sources?: Record<string, { ast: { nodes: { nodeType: string; name?: string; contractKind?: string }[] } }>;
  contracts?: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
};

/**
 * Compiles every .sol file of `dir` with the solc-js pinned in package.json. Returns deployable
 * contracts only (interfaces, libraries and abstract contracts are left out), sorted by name.
 */
export function compileContracts(dir: string = contractsDir): CompiledContract[] {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".sol"))
    .sort();
  const sources = Object.fromEntries(files.map((f) => [f, { content: readFileSync(join(dir, f), "utf8") }]));
  const input = { language: "Solidity", sources, settings: compilerSettings };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;

  const problems = (output.errors ?? []).filter((e) => e.severity !== "info");
  const errors = problems.filter((e) => e.severity === "error");
  if (errors.length > 0) throw new Error(`solc failed:\n${errors.map((e) => e.formattedMessage).join("\n")}`);
  // Warnings fail the build too: they are cheap to fix now and easy to miss later.
  if (problems.length > 0) throw new Error(`solc warnings:\n${problems.map((e) => e.formattedMessage).join("\n")}`);

  // Libraries have bytecode too, but are inlined (internal functions only): nothing to deploy.
  const deployable = new Set<string>();
  for (const [sourceFile, { ast }] of Object.entries(output.sources ?? {})) {
    for (const node of ast.nodes) {
      if (node.nodeType === "ContractDefinition" && node.contractKind === "contract")
        deployable.add(`${sourceFile}:${node.name}`);
    }
  }

  const compiled: CompiledContract[] = [];
  for (const [sourceFile, contracts] of Object.entries(output.contracts ?? {})) {
    for (const [name, c] of Object.entries(contracts)) {
      if (!deployable.has(`${sourceFile}:${name}`) || !c.evm.bytecode.object) continue;
      compiled.push({ name, sourceFile, abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` });
    }
  }
  return compiled.sort((a, b) => a.name.localeCompare(b.name));
}

export const solcVersion: string = solc.version();
