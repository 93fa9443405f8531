/** One source's answer for one currency: USD per whole unit scaled by 1e18, when the source observed it (unix ms). */
export type PriceObservation = { priceE18: bigint; observedAt: number; source: string };
