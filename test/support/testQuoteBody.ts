import { zeroAddress } from "viem";

/** A quote body as a client posts it: 1000 wei of the native currency from EVM chain 10 to chain 20, exact input. */
export const testQuoteBody = {
  user: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
  originChainId: 10,
  destinationChainId: 20,
  originCurrency: zeroAddress,
  destinationCurrency: zeroAddress,
  amount: "1000",
  tradeType: "EXACT_INPUT",
};
