// Compiles contracts/*.sol and rewrites contracts/artifacts.ts. Run with `npm run contracts:build`.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { contractsDir } from "./compileContracts.js";
import { generateArtifacts } from "./generateArtifacts.js";

const target = join(contractsDir, "artifacts.ts");
writeFileSync(target, generateArtifacts(contractsDir));
console.log(`wrote ${target}`);
