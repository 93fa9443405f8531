import * as ecc from "@bitcoinerlab/secp256k1";
import { initEccLib } from "bitcoinjs-lib";
import { ECPairFactory } from "ecpair";

// bitcoinjs needs the curve registered once before any taproot payment or PSBT key-path signing.
initEccLib(ecc);

/** ECPair bound to the pure-JS secp256k1 (no native build), for devnet keys and tests. */
export const ecPair = ECPairFactory(ecc);
