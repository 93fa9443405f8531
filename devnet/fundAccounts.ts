import { type Address, type Hash, type Hex, parseUnits } from "viem";
import { testTokenAbi, wrappedNativeAbi } from "../contracts/abis.js";
import type { DevnetCurrency } from "./deployContracts.js";
import type { DevnetAccount } from "./devnetAccounts.js";
import { devnetWalletClient } from "./devnetWalletClient.js";

/** Whole units minted per account, by symbol. */
export const defaultFunding: Record<string, string> = { USDC: "1000000", WETH: "1000" };

export type FundAccountsOptions = {
  rpcUrl: string;
  chainId: number;
  /** Any funded key: TestToken minting is open, this account only pays the gas. */
  funderPrivateKey: Hex;
  currencies: DevnetCurrency[];
  /** With their keys: wrapped native (WETH) cannot be minted, so each recipient wraps its own ether. */
  recipients: DevnetAccount[];
  /** Whole units per symbol; currencies not listed are not minted. */
  amounts?: Record<string, string>;
};

/**
 * Mints test tokens to each recipient, and has each wrap its own ether into the wrapped native (native ETH needs
 * nothing: anvil starts its accounts with 10,000 ETH). Sends every transaction with explicit nonces, then waits
 * for all receipts.
 */
export async function fundAccounts(options: FundAccountsOptions): Promise<void> {
  const { rpcUrl, chainId, funderPrivateKey, currencies, recipients, amounts = defaultFunding } = options;
  const client = devnetWalletClient({ rpcUrl, chainId, privateKey: funderPrivateKey });
  let nonce = await client.getTransactionCount({ address: client.account.address, blockTag: "pending" });
  const hashes: Hash[] = [];
  for (const currency of currencies) {
    const whole = amounts[currency.symbol];
    if (whole === undefined) continue;
    const amount = parseUnits(whole, currency.decimals);
    for (const to of recipients) {
      if (currency.wrapsNative) {
        const wrapper = devnetWalletClient({ rpcUrl, chainId, privateKey: to.privateKey });
        const own = wrapper.account.address === client.account.address;
        hashes.push(
          await wrapper.writeContract({
            address: currency.address,
            abi: wrappedNativeAbi,
            functionName: "deposit",
            value: amount,
            gas: 100_000n,
            // The funder's own nonces are counted here; any other account sends its deposit alone.
            ...(own ? { nonce: nonce++ } : {}),
          }),
        );
        continue;
      }
      hashes.push(
        await client.writeContract({
          address: currency.address,
          abi: testTokenAbi,
          functionName: "mint",
          args: [to.address, amount],
          nonce: nonce++,
          gas: 100_000n,
        }),
      );
    }
  }
  const receipts = await Promise.all(hashes.map((hash) => client.waitForTransactionReceipt({ hash })));
  const failed = receipts.find((r) => r.status !== "success");
  if (failed) throw new Error(`mint failed on chain ${chainId} (tx ${failed.transactionHash})`);
}
