/** A known deposit address: the family's key of it and the order a payment to it pays (its current request's). */
export type DepositAddressOwner = { key: string; orderId: string; requestId: string };
