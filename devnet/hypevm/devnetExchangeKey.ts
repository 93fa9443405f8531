import { keccak256, stringToHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { DevnetSigner } from "../startDevnetChains.js";

/** A deterministic exchange key for a devnet role ("solver", "depository"). Public by construction: devnet only. */
export function devnetExchangeKey(role: string): DevnetSigner {
  const privateKey = keccak256(stringToHex(`crossfill devnet exchange key ${role}`));
  return Object.assign(privateKeyToAccount(privateKey), { privateKey });
}
