import type { OrderData } from "../domain/order.js";
import { encodeOrderCall } from "../domain/order.js";
import type { PriceQuote } from "./priceQuote.js";
import type { QuoteRequest } from "./validateQuoteRequest.js";

/** The protocol order for a priced request: what the deposit pays for and what the solver owes. */
export function buildOrder(
  request: QuoteRequest,
  price: PriceQuote,
  options: { solver: string; salt: bigint; deadline: number },
): OrderData {
  const origin = request.originChain.name;
  const destination = request.destinationChain.name;
  const lower = (value: string) => value.toLowerCase();
  return {
    version: "v1",
    solverChainId: destination,
    solver: lower(options.solver),
    salt: options.salt.toString(),
    inputs: [
      {
        payment: {
          chainId: origin,
          currency: lower(request.currencyIn.address),
          amount: price.amountIn.toString(),
          weight: "1",
        },
        refunds: [
          {
            chainId: origin,
            recipient: lower(request.refundTo),
            currency: lower(request.currencyIn.address),
            minimumAmount: "0",
            deadline: options.deadline,
            extraData: "0x",
          },
        ],
      },
    ],
    output: {
      chainId: destination,
      payments: [
        {
          recipient: lower(request.recipient),
          currency: lower(request.currencyOut.address),
          minimumAmount: price.minimumAmountOut.toString(),
          expectedAmount: price.amountOut.toString(),
        },
      ],
      calls: request.calls.map((call) =>
        encodeOrderCall({ ...call, to: call.to as `0x${string}`, data: call.data as `0x${string}` }),
      ),
      deadline: options.deadline,
      extraData: "0x",
    },
    fees: [
      {
        recipientChainId: origin,
        recipient: lower(options.solver),
        currencyChainId: origin,
        currency: lower(request.currencyIn.address),
        amount: (price.relayerGasFee + price.relayerServiceFee).toString(),
      },
    ],
  };
}
