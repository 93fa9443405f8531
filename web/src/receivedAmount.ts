type ActualRoute<A> = { origin: { outputCurrency: A | null }; destination: { outputCurrency: A | null } | null };

/** What a request paid out: the destination side's output, or on a same-chain request (no destination side) the origin's. */
export function receivedAmount<A>(actual: ActualRoute<A>): A | null {
  return actual.destination ? actual.destination.outputCurrency : actual.origin.outputCurrency;
}
