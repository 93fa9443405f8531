import type { AddressCodec } from "../chains/vmFamily.js";
import type { OrderData } from "../domain/order.js";
import { encodeOrderCall } from "../domain/order.js";
import type { PriceQuote } from "./priceQuote.js";
import type { QuoteRequest } from "./validateQuoteRequest.js";

/** The protocol order for a priced request: what the deposit pays for and what the solver owes. */
export function buildOrder(
  request: QuoteRequest,
  price: PriceQuote,
  options: {
    /** The solver's account on the destination chain, which fills. */
    solver: string;
    /** The solver's account on the origin chain, which is paid the fees. */
    feeRecipient: string;
    salt: bigint;
    deadline: number;
    /** Each side's addresses as its chain family compares them (EVM: lower case), so the order id is stable. */
    originAddress: AddressCodec;
    destinationAddress: AddressCodec;
  },
): OrderData {
  const origin = request.originChain.name;
  const destination = request.destinationChain.name;
  const atOrigin = options.originAddress.key;
  const atDestination = options.destinationAddress.key;
  return {
    version: "v1",
    solverChainId: destination,
    solver: atDestination(options.solver),
    salt: options.salt.toString(),
    inputs: [
      {
        payment: {
          chainId: origin,
          currency: atOrigin(request.currencyIn.address),
          amount: price.amountIn.toString(),
          weight: "1",
        },
        refunds: [
          {
            chainId: origin,
            recipient: atOrigin(request.refundTo),
            currency: atOrigin(request.currencyIn.address),
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
          recipient: atDestination(request.recipient),
          currency: atDestination(request.currencyOut.address),
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
        recipient: atOrigin(options.feeRecipient),
        currencyChainId: origin,
        currency: atOrigin(request.currencyIn.address),
        amount: (price.relayerGasFee + price.relayerServiceFee).toString(),
      },
      // The order commits to each integrator's fee: it stays in the Depository until its recipient claims it.
      ...request.appFees.map((fee, index) => ({
        recipientChainId: origin,
        recipient: atOrigin(fee.recipient),
        currencyChainId: origin,
        currency: atOrigin(request.currencyIn.address),
        amount: price.appFees[index].toString(),
      })),
    ],
  };
}
