import { type Address, type Hex, toHex } from "viem";
import { mnemonicToAccount } from "viem/accounts";

/** anvil's default mnemonic. Its keys are public: never send real funds to these addresses. */
export const anvilMnemonic = "test test test test test test test test test test test junk";

export type DevnetAccount = { address: Address; privateKey: Hex };

export type DevnetAccounts = {
  /** index 0: the solver, also deployer of the contracts and owner of the Depository */
  solver: DevnetAccount;
  /** indexes 1..5: users for tests and demos */
  testAccounts: DevnetAccount[];
  /** index 9: the devnet price service, owner of the aggregators (its own nonces, apart from the solver's fills) */
  priceService: DevnetAccount;
};

/** The accounts anvil funds with 10,000 ETH when started with `mnemonic` (BIP-44 m/44'/60'/0'/0/i). */
export function devnetAccounts(mnemonic: string = anvilMnemonic): DevnetAccounts {
  const derive = (addressIndex: number): DevnetAccount => {
    const account = mnemonicToAccount(mnemonic, { addressIndex });
    const key = account.getHdKey().privateKey;
    if (!key) throw new Error(`no private key derived for index ${addressIndex}`);
    return { address: account.address, privateKey: toHex(key) };
  };
  return { solver: derive(0), testAccounts: [1, 2, 3, 4, 5].map(derive), priceService: derive(9) };
}
