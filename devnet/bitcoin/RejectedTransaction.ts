/**
 * A raw transaction the devnet Esplora refuses. The codes are bitcoind's RPC codes (-22 decode, -25 missing
 * inputs, -26 policy/consensus, -27 already confirmed) because Esplora relays bitcoind's error verbatim.
 */
export class RejectedTransaction extends Error {
  constructor(
    readonly code: -22 | -25 | -26 | -27,
    readonly reason: string,
  ) {
    super(reason);
    this.name = "RejectedTransaction";
  }

  /** The body Esplora answers with status 400. */
  get esploraText(): string {
    return `sendrawtransaction RPC error: ${JSON.stringify({ code: this.code, message: this.reason })}`;
  }
}
