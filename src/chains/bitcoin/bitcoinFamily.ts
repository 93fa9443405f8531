import * as ecc from "@bitcoinerlab/secp256k1";
import { address, initEccLib, type Network, networks } from "bitcoinjs-lib";
import type { VmFamily } from "../vmFamily.js";

// bitcoinjs-lib checks a taproot (bc1p…) address's key on the curve, so it needs one registered first.
initEccLib(ecc);

export type BitcoinNetworkName = "mainnet" | "testnet" | "regtest";

/** bitcoinjs-lib's parameters of each network a Bitcoin chain may be configured on. */
export const BITCOIN_NETWORKS: Readonly<Record<BitcoinNetworkName, Network>> = {
  mainnet: networks.bitcoin,
  testnet: networks.testnet,
  regtest: networks.regtest,
};

/** How currencies name native BTC (the spec's id); not a valid address, so it can never be paid to or filtered by. */
export const BITCOIN_NATIVE_CURRENCY = "bc1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqmql8k8";

/**
 * An address of `network` in canonical form: bech32/bech32m in lower case (BIP173 allows all-upper, refuses mixed
 * case), base58 exactly as given since its case is part of its checksum; undefined for anything else.
 */
function parseAddress(value: string, network: Network): string | undefined {
  const lower = value.toLowerCase();
  const bech32 = lower.startsWith(`${network.bech32}1`);
  if (bech32 && value !== lower && value !== value.toUpperCase()) return undefined;
  const candidate = bech32 ? lower : value;
  if (candidate === BITCOIN_NATIVE_CURRENCY) return undefined;
  try {
    address.toOutputScript(candidate, network);
    return candidate;
  } catch {
    return undefined;
  }
}

/**
 * Bitcoin on the given networks: addresses of any of them, compared in their canonical form; txids are 64 hex
 * digits (no 0x), shown in lower case. A chain uses its own network; fields bound to no chain accept all three.
 */
export function bitcoinFamily(networkNames: readonly BitcoinNetworkName[]): VmFamily<"bvm"> {
  const accepted = networkNames.map((name) => BITCOIN_NETWORKS[name]);
  return {
    vmType: "bvm",
    nativeCurrency: BITCOIN_NATIVE_CURRENCY,
    address: {
      parse(value) {
        for (const network of accepted) {
          const parsed = parseAddress(value, network);
          if (parsed !== undefined) return parsed;
        }
        return undefined;
      },
      key: (address) => address,
    },
    parseTransactionHash: (value) => (/^[0-9a-f]{64}$/i.test(value) ? value.toLowerCase() : undefined),
  };
}
