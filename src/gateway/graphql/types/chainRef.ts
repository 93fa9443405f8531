import type { ChainConfig } from "../../../chains/chainConfig.js";
import { builder } from "../builder.js";

/** The GraphQL `Chain`, declared apart from its fields (chain.ts): Chain and Currency refer to each other. */
export const ChainRef = builder.objectRef<ChainConfig>("Chain");
