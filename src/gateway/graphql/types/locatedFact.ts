import { type FactPosition, int32Position } from "../../../domain/factPosition.js";
import { builder } from "../builder.js";

/** What a deposit and a fill share: where the fact sits, exact at any size (a TON lt passes GraphQL's 32-bit Int). */
export const LocatedFactRef = builder.interfaceRef<{ logIndex: FactPosition }>("LocatedFact").implement({
  description: "A chain fact's place in its transaction or chain.",
  fields: (t) => ({
    logIndex: t.int({
      nullable: true,
      description:
        "The position as a 32-bit Int (an EVM log index, a Bitcoin vout); null when it does not fit (a TON lt): read `position`.",
      resolve: (fact) => int32Position(fact.logIndex),
    }),
    position: t.string({
      description:
        "Where the fact sits in its transaction or chain, exact at any size, as a decimal string: an EVM log index, a Bitcoin vout, a TON lt.",
      resolve: (fact) => fact.logIndex.toString(),
    }),
  }),
});
