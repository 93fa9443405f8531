import { SEND_ASSET_TYPES } from "../../src/chains/hypevm/sendAssetTypes.js";

/**
 * The user-signed transfer actions the devnet exchange accepts, each with its own EIP-712 type list (field order
 * matters: it is hashed) and the field that carries its nonce. The names follow the exchange's public API.
 */
export const userSignedActionTypes = {
  usdSend: {
    primaryType: "HyperliquidTransaction:UsdSend",
    nonceField: "time",
    fields: [
      { name: "hyperliquidChain", type: "string" },
      { name: "destination", type: "string" },
      { name: "amount", type: "string" },
      { name: "time", type: "uint64" },
    ],
  },
  spotSend: {
    primaryType: "HyperliquidTransaction:SpotSend",
    nonceField: "time",
    fields: [
      { name: "hyperliquidChain", type: "string" },
      { name: "destination", type: "string" },
      { name: "token", type: "string" },
      { name: "amount", type: "string" },
      { name: "time", type: "uint64" },
    ],
  },
  // The same struct the service's withdrawal step asks wallets to sign.
  sendAsset: {
    primaryType: "HyperliquidTransaction:SendAsset",
    nonceField: "nonce",
    fields: SEND_ASSET_TYPES["HyperliquidTransaction:SendAsset"],
  },
} as const;

export type UserSignedActionType = keyof typeof userSignedActionTypes;

export const isUserSignedActionType = (type: unknown): type is UserSignedActionType =>
  typeof type === "string" && Object.hasOwn(userSignedActionTypes, type);

/** The `types` argument of an EIP-712 signature of this action: its one struct, no domain entry. */
export const eip712TypesOf = (type: UserSignedActionType) => {
  const { primaryType, fields } = userSignedActionTypes[type];
  return { [primaryType]: fields } as Record<string, ReadonlyArray<{ name: string; type: string }>>;
};
