import type { StoredRequest } from "../schema/requests.js";
import type { FillOrder, PreparedTransaction, SolverPort } from "../src/chains/adapter.js";
import { attemptFailReason } from "../src/domain/attemptFailReason.js";
import { nativeConversionOf } from "../src/domain/nativeConversion.js";
import { failFill } from "./failFill.js";
import type { FillContext } from "./fillDeps.js";

function fillOrder(
  request: StoredRequest,
  amount: bigint,
  currencySymbol: string,
  conversion: FillOrder["conversion"],
): FillOrder {
  // The rent the quote charged for opening the recipient's account, in the destination's native unit.
  const quotedRent = (request.quote as { fillRent?: { amount: string } } | null)?.fillRent;
  return {
    requestId: request.id,
    orderId: request.orderId,
    currency: request.destinationCurrency,
    amount,
    recipient: request.recipient,
    calls: request.calls.map((call) => ({ to: call.to, value: BigInt(call.value), data: call.data })),
    currencySymbol,
    ...(conversion ? { conversion } : {}),
    ...(quotedRent ? { quotedRent: BigInt(quotedRent.amount) } : {}),
  };
}

/**
 * The solver's side of a fill before it is signed: it must hold what it pays (and the gas, when that is the same
 * currency), and the fill, built and simulated on the destination chain, must not revert. Returns the destination's
 * solver and the prepared transaction, or the job's result when the request was failed instead.
 */
export async function prepareSolverFill(
  context: FillContext,
  request: StoredRequest,
  amountOut: bigint,
): Promise<{ solver: SolverPort; transaction: PreparedTransaction } | string> {
  // Prices and balances are the quoter's; building the fill is the solver's.
  const chain = context.adapters.quoter(request.destinationChainId);
  const solver = context.adapters.solver(request.destinationChainId);
  const currency = context.registry.currency(chain.chain.id, request.destinationCurrency);
  // A wrap or unwrap converts what the user brought (same chain): the solver spends the origin currency.
  const conversionKind = nativeConversionOf(request.requestType);
  const wrappedNative = context.registry.wrappedNative(chain.chain.id);
  if (conversionKind && !wrappedNative) throw new Error(`chain ${chain.chain.id} has no wrapped native to convert`);
  const conversion = conversionKind && { kind: conversionKind, wrappedNative: wrappedNative!.address };
  const spent = conversion ? request.originCurrency : request.destinationCurrency;
  const spentSymbol = context.registry.currency(chain.chain.id, spent)?.symbol ?? spent;
  const gasReserve =
    spent === chain.nativeCurrency ? await chain.estimateFee("fill", spent, request.calls.length, conversionKind) : 0n;
  const balance = await chain.balanceOf(chain.solverAddress, spent);
  if (balance < amountOut + gasReserve) {
    return failFill(
      context,
      request,
      "SOLVER_BALANCE_TOO_LOW",
      {
        message: `the solver holds ${balance} of ${spentSymbol} on chain ${chain.chain.id} and needs ${amountOut + gasReserve}`,
      },
      { sent: false },
    );
  }
  const prepared = await solver.prepareFill(
    fillOrder(request, amountOut, currency?.symbol ?? request.destinationCurrency, conversion),
  );
  if ("refusal" in prepared) {
    const { failure, call } = prepared.refusal;
    return failFill(context, request, attemptFailReason(request.requestType, failure.failReason), failure.details, {
      sent: false,
      failedTransaction: {
        txHash: null,
        blockNumber: null,
        timestamp: null,
        fee: null,
        call: { ...call, value: call.value.toString() },
      },
    });
  }
  return { solver, transaction: prepared.transaction };
}
