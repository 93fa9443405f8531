import { zeroAddress } from "viem";

/** The chain and currency fields of a quote body: native on both sides unless told otherwise. */
export function route(
  origin: { id: number },
  destination: { id: number },
  originCurrency: string = zeroAddress,
  destinationCurrency: string = zeroAddress,
) {
  return { originChainId: origin.id, destinationChainId: destination.id, originCurrency, destinationCurrency };
}
