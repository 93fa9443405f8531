import { z } from "zod";
import { REQUEST_STATUSES } from "../../domain/requestStatus.js";

const digits = z.string().regex(/^\d+$/);
const decimal = z.string().regex(/^-?\d+(\.\d+)?$/);

const currencyObject = z.looseObject({
  chainId: z.number().int(),
  address: z.string(),
  symbol: z.string(),
  name: z.string(),
  decimals: z.number().int(),
  metadata: z.looseObject({}),
});
const amount = z.looseObject({
  currency: currencyObject,
  amount: digits,
  amountFormatted: z.string(),
  amountUsd: z.string(),
});
/** A quoted or paid app fee, v2's shape. */
const appFee = z
  .object({
    recipient: z.string(),
    bps: z.string(),
    amount: digits,
    amountUsd: z.string(),
    amountUsdCurrent: z.string(),
  })
  .strict();
/** One side of `subsidizedFee`. */
const subsidizedSide = z.object({ amount: digits, address: z.string().nullable(), chainId: z.number().int() }).strict();

/** An `inTxs`/`outTxs` entry: v3's, with `hash` for `txHash` and no `status` or `metadata`. */
const v2Transaction = z.looseObject({
  hash: z.string(),
  fee: digits.describe("what the transaction paid, in the chain's native smallest unit"),
  block: z.number().int(),
  type: z.literal("onchain"),
  chainId: z.number().int(),
  timestamp: z.number().int().describe("its block's time, seconds"),
  data: z.looseObject({}),
  stateChanges: z.array(z.unknown()),
});
const v2Deposit = v2Transaction.extend({
  currency: z.string().describe("the deposited currency's id: its symbol, lower case"),
  currencyObject,
  feeCurrency: z.string().nullable().describe("the origin chain's native currency, which paid the network fee"),
  feeCurrencyObject: currencyObject.nullable(),
});

/**
 * The deprecated v2 request record as GET /requests/v2 and GET /requests return it (published in /openapi.json):
 * every field the spec's v2 list names, with its type; fields past that list (the spec does not show them) open.
 * docs/API.md says what each holds and which are constants.
 */
export const requestRecordV2Schema = z.looseObject({
  id: z.string(),
  status: z.enum(REQUEST_STATUSES.filter((status) => status !== "submitted")).describe("v2 has no submitted: pending"),
  user: z.string(),
  recipient: z.string(),
  depositAddress: z
    .object({
      address: z.string(),
      depositAddressType: z.enum(["strict", "open"]),
      depositor: z.string().nullable(),
      depositTxHash: z.string().nullable(),
    })
    .strict()
    .nullable(),
  partnerId: z.string().nullable(),
  referrer: z.string().nullable(),
  data: z.looseObject({
    slippageTolerance: digits.describe("basis points"),
    failReason: z.string().describe("N/A when none"),
    refundFailReason: z.string().describe("N/A when none"),
    supersededByRequestId: z.string().nullable(),
    failedTxHash: z.string().nullable(),
    failedTxBlockNumber: z.number().int().nullable(),
    failedCallData: z.looseObject({}).nullable(),
    subsidizedRequest: z.boolean(),
    fees: z.object({ gas: digits, fixed: digits, price: digits, gateway: digits }).strict(),
    feesUsd: z.object({ gas: decimal, fixed: decimal, price: decimal, gateway: decimal }).strict(),
    inTxs: z.array(v2Deposit).describe("the deposits"),
    currency: z.string(),
    currencyObject,
    feeCurrency: z.string(),
    feeCurrencyObject: currencyObject,
    appFeeCurrencyObject: currencyObject,
    refundCurrencyData: z.looseObject({}).nullable(),
    appFees: z.array(appFee).describe("as quoted"),
    paidAppFees: z.array(appFee).describe("as paid"),
    subsidizedFee: z
      .object({ origin: subsidizedSide, sponsor: subsidizedSide, amountUsd: decimal, amountUsdCurrent: decimal })
      .strict(),
    expandedPriceImpact: z
      .object({ quoted: z.looseObject({}).nullable(), actual: z.looseObject({}).nullable() })
      .strict(),
    feeSponsorship: z.looseObject({}).nullable(),
    outTxs: z.array(v2Transaction).describe("the fills"),
    price: z.string(),
    usesExternalLiquidity: z.boolean(),
    timeEstimate: z.number(),
    metadata: z
      .object({
        sender: z.string(),
        recipient: z.string(),
        currencyIn: amount,
        currencyOut: amount,
        rate: z.string(),
        route: z.looseObject({}),
        currencyGasTopup: z.looseObject({}).nullable(),
      })
      .strict(),
  }),
  protocol: z.looseObject({
    orderId: z.string(),
    hubType: z.literal("onchain"),
    orderData: z.looseObject({}).optional(),
  }),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
