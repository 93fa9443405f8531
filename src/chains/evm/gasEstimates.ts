/** Gas units used to price a quote before any transaction exists; measured on the devnet contracts with headroom. */
export const GAS_ESTIMATES = {
  approve: 50_000n,
  depositNative: 45_000n,
  depositErc20: 75_000n,
  fillNative: 70_000n,
  fillErc20: 90_000n,
  // A Receiver fill that wraps (WETH deposit + transfer in its CallExecutor, ~86k measured) or unwraps (WETH to the
  // executor, withdraw, ether out: ~90k).
  fillWrap: 100_000n,
  fillUnwrap: 120_000n,
  perCall: 150_000n,
  withdrawNative: 45_000n,
  withdrawErc20: 65_000n,
} as const;
