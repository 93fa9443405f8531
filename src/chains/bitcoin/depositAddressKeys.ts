import * as ecc from "@bitcoinerlab/secp256k1";
import { HDKey } from "@scure/bip32";
import { payments } from "bitcoinjs-lib";
import { ECPairFactory, type ECPairInterface } from "ecpair";
import { BITCOIN_NETWORKS, type BitcoinNetworkName } from "./bitcoinFamily.js";

const ecPair = ECPairFactory(ecc);

/** BIP32 version bytes of extended keys: xpub/xprv on mainnet, tpub/tprv on testnet and regtest. */
const VERSIONS: Record<BitcoinNetworkName, { public: number; private: number }> = {
  mainnet: { public: 0x0488b21e, private: 0x0488ade4 },
  testnet: { public: 0x043587cf, private: 0x04358394 },
  regtest: { public: 0x043587cf, private: 0x04358394 },
};

/** The highest non-hardened BIP32 child index: a deposit address index never reaches 2^31. */
export const MAX_DEPOSIT_ADDRESS_INDEX = 0x7fffffff;

export type DepositAddressKeys = {
  /** The P2WPKH address of index `index`: the account key's child `0/index` (BIP84's receive chain). */
  addressAt(index: number): string;
  /** The key that spends what that address holds; only from an extended private key (the worker's). */
  signerAt?(index: number): ECPairInterface;
};

/**
 * Deposit addresses derived from a BIP84 account key (m/84'/0'/0' on mainnet, m/84'/1'/0' on testnet and regtest):
 * address `i` is P2WPKH of the account's child `0/i`. The gateway holds the extended public key (it only derives
 * addresses); the worker the extended private key (it sweeps and refunds them). A key of another network is refused.
 */
export function depositAddressKeys(extendedKey: string, networkName: BitcoinNetworkName): DepositAddressKeys {
  const network = BITCOIN_NETWORKS[networkName];
  let account: HDKey;
  try {
    account = HDKey.fromExtendedKey(extendedKey, VERSIONS[networkName]);
  } catch (error) {
    // Never echo the key: it may be the private one.
    throw new Error(`the deposit address key is not an extended key of ${networkName} (${(error as Error).message})`);
  }
  const receive = account.deriveChild(0);
  const child = (index: number) => {
    if (!Number.isInteger(index) || index < 0 || index > MAX_DEPOSIT_ADDRESS_INDEX)
      throw new Error(`deposit address index ${index} is outside 0…2^31−1`);
    return receive.deriveChild(index);
  };
  const addressAt = (index: number) =>
    payments.p2wpkh({ pubkey: Buffer.from(child(index).publicKey!), network }).address!;
  if (!account.privateKey) return { addressAt };
  return {
    addressAt,
    signerAt: (index) => ecPair.fromPrivateKey(Buffer.from(child(index).privateKey!), { network }),
  };
}
