// Writes schema/schema.graphql from the Pothos schema: `npm run graphql:schema` after changing a GraphQL type.
// src/gateway/graphql/schema.test.ts fails while the committed file and the code disagree.
import { writeFileSync } from "node:fs";
import { printSchema } from "graphql";
import { schema } from "../src/gateway/graphql/schema.js";

const target = new URL("../schema/schema.graphql", import.meta.url);
writeFileSync(target, `${printSchema(schema)}\n`);
process.stdout.write(`wrote ${target.pathname}\n`);
