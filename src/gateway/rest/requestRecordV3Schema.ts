import { z } from "zod";
import { REQUEST_STATUSES } from "../../domain/requestStatus.js";

/** One settlement transaction of `protocol.settlement.destination`: a fill, or a refund's withdrawal. */
const settlementTransaction = z
  .object({
    chainId: z.number().int().describe("the chain the transaction is on"),
    transactionId: z.string().describe("its hash, in the chain family's encoding"),
  })
  .strict();

/** An `inTxs`/`outTxs` entry: a deposit, or a fill (mined, or mined and reverted: `status` failure). */
const onchainTransaction = z.looseObject({
  txHash: z.string(),
  fee: z.string().regex(/^\d+$/).describe("what the transaction paid, in the chain's native smallest unit"),
  block: z.number().int(),
  type: z.literal("onchain"),
  chainId: z.number().int(),
  timestamp: z.number().int().describe("its block's time, seconds"),
  status: z.enum(["success", "failure"]),
  data: z.looseObject({}),
  stateChanges: z.array(z.unknown()),
  metadata: z
    .looseObject({
      confirmedBy: z
        .literal("receipt")
        .optional()
        .describe("a fill known from the solver's receipt only: no indexer (or POST /transactions/index) has it yet"),
      disagreement: z.looseObject({}).optional(),
      reorg: z.looseObject({}).optional(),
    })
    .optional(),
});

/**
 * The v3 request record as GET /requests/v3 returns it (published in /openapi.json): its settlement — the fills and
 * refunds (`protocol.settlement.destination`, the transactions in `data.inTxs`/`data.outTxs`) — in full, the rest
 * open. The spec's interface.md names these fields; docs/API.md says what each holds.
 */
export const requestRecordV3Schema = z.looseObject({
  id: z.string(),
  status: z.enum(REQUEST_STATUSES),
  data: z.looseObject({
    failReason: z.string().nullable(),
    refundFailReason: z.string().nullable(),
    inTxs: z.array(onchainTransaction).describe("the deposits"),
    outTxs: z.array(onchainTransaction).describe("the fills: the one the request succeeded on, or a reverted one"),
  }),
  protocol: z.looseObject({
    orderId: z.string(),
    settlement: z.object({
      destination: z.object({
        fills: z.array(settlementTransaction).describe("the fills of the request, mined"),
        refunds: z.array(settlementTransaction).describe("the refunds of its deposits, sent"),
      }),
    }),
  }),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
