import { lexicographicSortSchema } from "graphql";
import { builder } from "./builder.js";
import "./types/amount.js";
import "./types/apiKey.js";
import "./types/appFees.js";
import "./types/chain.js";
import "./types/currency.js";
import "./types/deposit.js";
import "./types/explorerRequests.js";
import "./types/fill.js";
import "./types/quote.js";
import "./types/request.js";
import "./types/requestConnection.js";
import "./types/requestFilterInput.js";
import "./types/requestStats.js";
import "./types/requestStatus.js";
import "./types/statusEvent.js";
import "./types/webhook.js";

/** The whole GraphQL schema: every type file registers itself on the builder, then it is built once. */
export const schema = lexicographicSortSchema(builder.toSchema());
