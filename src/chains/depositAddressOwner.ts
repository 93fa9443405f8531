/** A known deposit address: its derivation index and the order a payment to it pays (its current request's). */
export type DepositAddressOwner = { derivationIndex: number; orderId: string; requestId: string };
