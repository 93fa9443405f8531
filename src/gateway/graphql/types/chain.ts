import { InvalidInputError, NotFoundError } from "../../../domain/errors.js";
import { builder } from "../builder.js";
import { ChainRef } from "./chainRef.js";
import { CurrencyRef } from "./currency.js";
import { EXPLORER_PATHS } from "../../../chains/explorerPaths.js";

const ExplorerPathsRef = builder.objectRef<typeof EXPLORER_PATHS>("ExplorerPaths").implement({
  description: "Paths under explorerUrl, as GET /chains has them.",
  fields: (t) => ({
    transaction: t.exposeString("transaction", { description: "{TX_HASH} is replaced by the transaction hash." }),
  }),
});

ChainRef.implement({
  description: "A chain the service bridges from and to.",
  fields: (t) => ({
    id: t.exposeInt("id"),
    name: t.exposeString("name"),
    displayName: t.string({ resolve: (chain) => chain.displayName ?? chain.name }),
    vmType: t.exposeString("vmType"),
    // Only the URLs the chains file publishes (empty / null when unset): the solver's own may carry a provider key.
    // A family without an RPC (Bitcoin, read through Esplora) publishes none: empty / null.
    httpRpcUrl: t.string({
      description: "The chain's public RPC URL (the chains file's publicRpcUrl); empty when none is published.",
      resolve: (chain, _, context) => context.registry.family(chain).publicFields(chain).publicRpcUrl ?? "",
    }),
    wsRpcUrl: t.string({
      nullable: true,
      description: "The chain's public websocket RPC URL (publicWsUrl); null when none is published.",
      resolve: (chain, _, context) => context.registry.family(chain).publicFields(chain).publicWsUrl ?? null,
    }),
    explorerUrl: t.exposeString("explorerUrl"),
    explorerPaths: t.field({ type: ExplorerPathsRef, resolve: () => EXPLORER_PATHS }),
    blockTimeSeconds: t.exposeFloat("blockTimeSeconds"),
    depository: t.exposeString("depository", { description: "The contract deposits are sent to on this chain." }),
    receiver: t.string({
      description: "The contract fills are made through on this chain.",
      // A family whose fills need no contract (Bitcoin) shows its native currency id, as GET /chains does.
      resolve: (chain, _, context) => context.registry.family(chain).publicFields(chain).receiver,
    }),
    currency: t.field({
      type: CurrencyRef,
      description: "The native currency.",
      resolve: (chain, _, context) => context.registry.currencies(chain.id)[0],
    }),
    currencies: t.field({
      type: [CurrencyRef],
      description: "Every supported currency, native first.",
      resolve: (chain, _, context) => context.registry.currencies(chain.id),
    }),
  }),
});

builder.queryFields((t) => ({
  chains: t.field({ type: [ChainRef], resolve: (_, __, context) => [...context.registry.chains] }),
  chain: t.field({
    type: ChainRef,
    args: { id: t.arg.int({ required: true }) },
    resolve: (_, { id }, context) => {
      if (id <= 0) throw new InvalidInputError("INVALID_INPUT", "id must be a positive chain id");
      const chain = context.registry.chain(id);
      if (!chain) throw new NotFoundError("UNSUPPORTED_CHAIN", `chain ${id} is not supported`);
      return chain;
    },
  }),
}));
