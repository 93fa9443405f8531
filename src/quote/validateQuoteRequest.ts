import { z } from "zod";
import type { QuotePort } from "../chains/adapter.js";
import type { ChainAdapters } from "../chains/chainAdapters.js";
import type { ChainConfig } from "../chains/chainConfig.js";
import type { ChainCapabilities } from "../chains/chainFamily.js";
import type { ChainRegistry, Currency } from "../chains/chainRegistry.js";
import { InvalidInputError } from "../domain/errors.js";
import { invalidInput } from "../domain/invalidInput.js";
import type { AppFee } from "../domain/splitAppFees.js";
import { DEFAULT_SPONSORED_COMPONENTS, type SponsorshipTerms } from "../domain/sponsorFees.js";
import { misspelledQuoteField } from "./misspelledQuoteField.js";
import { parseAppFees } from "./parseAppFees.js";
import { requestKindOf } from "./requestKindOf.js";
import { quoteRequestSchema } from "./quoteRequestSchema.js";

export type DestinationCall = { to: string; value: bigint; data: string };

/** Addresses in their chain's canonical form: user and refundTo on the origin chain, the rest on the destination. */
export type QuoteRequest = {
  user: string;
  recipient: string;
  refundTo: string;
  originChain: ChainConfig;
  destinationChain: ChainConfig;
  currencyIn: Currency;
  currencyOut: Currency;
  amount: bigint;
  tradeType: "EXACT_INPUT" | "EXACT_OUTPUT";
  calls: DestinationCall[];
  slippageBps: bigint | undefined;
  latePaymentSlippageBps: bigint | undefined;
  referrer: string | undefined;
  includeProtocolData: boolean;
  /** `protocolVersion` as asked ("v2", the only one); an origin may require it (withdrawals from the perps exchange). */
  protocolVersion?: "v2";
  /** Integrators' fees taken from the input; empty when none. */
  appFees: AppFee[];
  /** `subsidizeFees: true`: what the sponsor (the quoting key's integrator) pays; undefined when not asked. */
  sponsorship: SponsorshipTerms | undefined;
  /** `useDepositAddress: true` (Bitcoin origin): the user pays a fresh address; `strict` with a required refundTo. */
  depositAddress: { type: "open" | "strict" } | undefined;
  /** `depositFeePayer` (origins whose capabilities take it): an origin address that pays the deposit's fee. */
  depositFeePayer: string | undefined;
};

function slippage(value: unknown, field: string): bigint | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "string" && /^\d{1,5}$/.test(value) && Number(value) <= 10_000) return BigInt(value);
  throw new InvalidInputError(
    "INVALID_SLIPPAGE_TOLERANCE",
    `${field} must be an integer string of basis points from 0 to 10000`,
  );
}

function address(
  adapter: QuotePort,
  value: string,
  field: string,
  errorCode: "INVALID_ADDRESS" | "INVALID_INPUT" = "INVALID_ADDRESS",
): string {
  const parsed = adapter.address.parse(value);
  if (parsed === undefined)
    throw new InvalidInputError(errorCode, `${field} is not a valid address on chain ${adapter.chain.id}: ${value}`);
  return parsed;
}

/** Turns an untrusted body into a quote request the engine can price, or throws a 400 with the spec's code. */
export function validateQuoteRequest(body: unknown, registry: ChainRegistry, adapters: ChainAdapters): QuoteRequest {
  const misspelled = misspelledQuoteField(body);
  if (misspelled)
    throw new InvalidInputError(
      "INVALID_INPUT",
      `unknown field ${misspelled.field}: did you mean ${misspelled.meant}? (a misspelled field is refused, not ignored)`,
    );
  const parsed = quoteRequestSchema.safeParse(body, { reportInput: true });
  if (!parsed.success) throw invalidInput(parsed.error, "body", { issues: z.treeifyError(parsed.error) });
  const input = parsed.data;
  if (
    input.includeProtocolSignature !== undefined &&
    input.includeProtocolData !== undefined &&
    input.includeProtocolSignature !== input.includeProtocolData
  )
    throw new InvalidInputError(
      "INVALID_INPUT",
      "includeProtocolSignature is the old name of includeProtocolData: send includeProtocolData alone",
    );
  const slippageBps = slippage(input.slippageTolerance, "slippageTolerance");
  const latePaymentSlippageBps = slippage(input.latePaymentSlippageTolerance, "latePaymentSlippageTolerance");

  const originChain = registry.chain(input.originChainId);
  if (!originChain)
    throw new InvalidInputError("UNSUPPORTED_CHAIN", `origin chain ${input.originChainId} is not supported`);
  const destinationChain = registry.chain(input.destinationChainId);
  if (!destinationChain)
    throw new InvalidInputError("UNSUPPORTED_CHAIN", `destination chain ${input.destinationChainId} is not supported`);
  const originCan = registry.family(originChain).capabilities(originChain);
  const destinationCan = registry.family(destinationChain).capabilities(destinationChain);
  if (originChain.id === destinationChain.id && !originCan.sameChain)
    throw new InvalidInputError("UNSUPPORTED_ROUTE", "same-chain requests are offered on EVM chains only");
  if (destinationCan.destinationRefusal)
    throw new InvalidInputError("UNSUPPORTED_ROUTE", destinationCan.destinationRefusal);
  if (destinationCan.destinationCallsRefusal && input.txs?.length)
    throw new InvalidInputError("INVALID_INPUT", `txs: ${destinationCan.destinationCallsRefusal}`);
  const currencyIn = registry.currency(originChain.id, input.originCurrency);
  if (!currencyIn)
    throw new InvalidInputError(
      "UNSUPPORTED_CURRENCY",
      `currency ${input.originCurrency} is not supported on chain ${originChain.id}`,
    );
  const currencyOut = registry.currency(destinationChain.id, input.destinationCurrency);
  if (!currencyOut) {
    throw new InvalidInputError(
      "UNSUPPORTED_CURRENCY",
      `currency ${input.destinationCurrency} is not supported on chain ${destinationChain.id}`,
    );
  }

  const { origin, destination } = routeRoles(adapters, originChain.id, destinationChain.id);
  const user = address(origin, input.user, "user");
  // Without a recipient the user is paid, so the user must also be an address of the destination chain.
  const recipient = address(destination, input.recipient ?? input.user, "recipient");
  // Checked before anything is priced or written: a destination whose fills carry no signed order (or a gateway
  // without an order signer) has none to give.
  if (input.includeProtocolData && !destination.signOrder)
    throw new InvalidInputError(
      "UNSUPPORTED_ROUTE",
      `no solver signature of the order is made for chain ${destinationChain.id} (its fills carry none, or this gateway has no order signer): quote it without includeProtocolData`,
    );
  const refusal = destination.recipientRefusal(recipient, currencyOut.address);
  if (refusal) throw new InvalidInputError(refusal.errorCode, refusal.message);
  const refundTo = input.refundTo === undefined ? user : address(origin, input.refundTo, "refundTo");
  if (input.depositFeePayer !== undefined && !originCan.depositFeePayer)
    throw new InvalidInputError(
      "INVALID_INPUT",
      `depositFeePayer is taken for Solana origins only: chain ${originChain.id}'s deposits are paid by the user`,
    );
  const depositFeePayer =
    input.depositFeePayer === undefined ? undefined : address(origin, input.depositFeePayer, "depositFeePayer");

  const depositAddress = depositAddressOf(input, origin, originCan);
  const appFees = parseAppFees(input.appFees);
  // Earnings sit in the origin's Depository and are claimed with an EVM withdrawal.
  if (appFees.length > 0 && !originCan.appFees)
    throw new InvalidInputError("UNSUPPORTED_ROUTE", "app fees are earned on EVM origins only, for now");
  // A wrap, unwrap, send, bridge or call is not a swap execution flow, whatever its symbols.
  const kind = requestKindOf({
    calls: input.txs ?? [],
    currencyIn,
    currencyOut,
    wrappedNative: registry.wrappedNative(originChain.id),
  });
  // The spec refuses subsidizationBps on deposit-address flows as on bridges.
  const sponsorship = sponsorshipOf(input, { isSwap: kind.operation === "swap" && !depositAddress });

  const amount = BigInt(input.amount);
  if (amount === 0n) throw new InvalidInputError("INVALID_INPUT", "amount must be greater than zero");

  const calls = (input.txs ?? []).map((tx, index) => {
    const to = address(destination, tx.to, `txs[${index}].to`, "INVALID_INPUT");
    const forbidden = destination.callTargetRefusal?.(to);
    if (forbidden) throw new InvalidInputError("INVALID_INPUT", `txs[${index}].to: ${forbidden}`);
    return { to, value: BigInt(tx.value), data: tx.data };
  });
  const callValue = calls.reduce((sum, call) => sum + call.value, 0n);
  if (callValue > 0n && !currencyOut.metadata.isNative) {
    throw new InvalidInputError(
      "INVALID_INPUT",
      "txs[].value must be 0 when the destination currency is an ERC-20 token",
    );
  }
  if (
    calls.length > 0 &&
    input.tradeType === "EXACT_OUTPUT" &&
    currencyOut.metadata.isNative &&
    amount !== callValue &&
    callValue > 0n
  ) {
    throw new InvalidInputError(
      "INVALID_INPUT",
      `amount must equal the sum of txs[].value (${callValue}) for an EXACT_OUTPUT call`,
    );
  }

  return {
    user,
    recipient,
    refundTo,
    originChain,
    destinationChain,
    currencyIn,
    currencyOut,
    amount,
    tradeType: input.tradeType,
    calls,
    slippageBps,
    latePaymentSlippageBps,
    referrer: input.referrer,
    includeProtocolData: input.includeProtocolData ?? input.includeProtocolSignature ?? false,
    protocolVersion: input.protocolVersion,
    appFees,
    sponsorship,
    depositAddress,
    depositFeePayer,
  };
}

/**
 * The quoters of a route's chains, once the chains' families offer what the route needs of them: deposits and
 * refunds on the origin, fills on the destination. A chain listed without them (a family whose adapter is not wired,
 * or lacks the role) is refused as the user named it, never a 500.
 */
function routeRoles(adapters: ChainAdapters, originId: number, destinationId: number) {
  const origin = adapters.quoterOf(originId);
  if (!origin) throw new InvalidInputError("UNSUPPORTED_CHAIN", `origin chain ${originId} is not quoted yet`);
  const destination = adapters.quoterOf(destinationId);
  if (!destination)
    throw new InvalidInputError("UNSUPPORTED_CHAIN", `destination chain ${destinationId} is not quoted yet`);
  if (!adapters.depositsOf(originId) || !adapters.refunderOf(originId))
    throw new InvalidInputError("UNSUPPORTED_ROUTE", `chain ${originId} takes no deposits: it is no origin`);
  if (!adapters.solverOf(destinationId))
    throw new InvalidInputError("UNSUPPORTED_ROUTE", `chain ${destinationId} has no solver: it is no destination`);
  return { origin, destination };
}

/** `useDepositAddress` and `strict`: origins that offer deposit addresses and have their key; strict needs a refundTo. */
function depositAddressOf(
  input: Pick<z.infer<typeof quoteRequestSchema>, "useDepositAddress" | "strict" | "refundTo">,
  origin: QuotePort,
  originCan: ChainCapabilities,
): QuoteRequest["depositAddress"] {
  if (!input.useDepositAddress) {
    if (input.strict)
      throw new InvalidInputError("INVALID_INPUT", "strict applies to deposit addresses: set useDepositAddress");
    return undefined;
  }
  if (!originCan.depositAddresses)
    throw new InvalidInputError("UNSUPPORTED_ROUTE", "deposit addresses are offered for Bitcoin origins only");
  if (!origin.depositAddressFor)
    throw new InvalidInputError(
      "UNSUPPORTED_ROUTE",
      `chain ${origin.chain.id} has no deposit address key configured (BITCOIN_DEPOSIT_XPUB)`,
    );
  if (input.strict && input.refundTo === undefined)
    throw new InvalidInputError("INVALID_INPUT", "refundTo is required for a strict deposit address");
  return { type: input.strict ? "strict" : "open" };
}

/** The sponsorship fields: each needs `subsidizeFees: true`, and `subsidizationBps` a swap (the spec's rule). */
function sponsorshipOf(
  input: Pick<
    z.infer<typeof quoteRequestSchema>,
    "subsidizeFees" | "subsidizationBps" | "maxSubsidizationAmount" | "sponsoredFeeComponents"
  >,
  flow: { isSwap: boolean },
): SponsorshipTerms | undefined {
  if (!input.subsidizeFees) {
    for (const field of ["subsidizationBps", "maxSubsidizationAmount", "sponsoredFeeComponents"] as const) {
      if (input[field] !== undefined)
        throw new InvalidInputError("INVALID_INPUT", `${field} requires subsidizeFees: true`);
    }
    return undefined;
  }
  if (input.subsidizationBps !== undefined && !flow.isSwap) {
    throw new InvalidInputError(
      "INVALID_INPUT",
      "subsidizationBps applies only to swap execution flows, not to bridges, calls or deposit addresses",
    );
  }
  return {
    components: input.sponsoredFeeComponents ?? DEFAULT_SPONSORED_COMPONENTS,
    bps: BigInt(input.subsidizationBps ?? 10_000),
    capMicroUsd: input.maxSubsidizationAmount === undefined ? undefined : BigInt(input.maxSubsidizationAmount),
  };
}
