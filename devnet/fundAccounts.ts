import { type Address, type Hash, type Hex, parseUnits } from "viem";
import { testTokenAbi } from "../contracts/abis.js";
import type { DevnetCurrency } from "./deployContracts.js";
import { devnetWalletClient } from "./devnetWalletClient.js";

/** Whole units minted per account, by symbol. */
export const defaultFunding: Record<string, string> = { USDC: "1000000", WETH: "1000" };

export type FundAccountsOptions = {
  rpcUrl: string;
  chainId: number;
  /** Any funded key: TestToken minting is open, this account only pays the gas. */
  funderPrivateKey: Hex;
  currencies: DevnetCurrency[];
  recipients: Address[];
  /** Whole units per symbol; currencies not listed are not minted. */
  amounts?: Record<string, string>;
};

/**
 * Mints test tokens to each recipient (native ETH needs nothing: anvil starts its accounts with
 * 10,000 ETH). Sends every mint with explicit nonces, then waits for all receipts.
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
      hashes.push(
        await client.writeContract({
          address: currency.address,
          abi: testTokenAbi,
          functionName: "mint",
          args: [to, amount],
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
