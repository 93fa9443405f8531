import * as ecc from "@bitcoinerlab/secp256k1";
import { type Network, payments } from "bitcoinjs-lib";
import { ECPairFactory, type ECPairInterface } from "ecpair";

const ecPair = ECPairFactory(ecc);

/**
 * The key of one of the chain's wallets (the depository, which signs refunds; the solver, which pays fills) from its
 * WIF, refused unless its P2WPKH address is the one the chain configures for that role.
 */
export function walletSigner(
  wif: string,
  network: Network,
  expected: string,
  role: "depository" | "solver",
): ECPairInterface {
  const key = ecPair.fromWIF(wif, network);
  const { address } = payments.p2wpkh({ pubkey: key.publicKey, network });
  if (address !== expected)
    throw new Error(`the ${role} key's address ${address} is not the chain's ${role} ${expected}`);
  return key;
}
