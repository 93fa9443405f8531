/** A currency's `metadata` as clients see it, from its chains-file entry: its logo, and verified unless it says not. */
export function currencyMetadata(
  entry: { logoURI?: string; verified?: boolean },
  isNative: boolean,
): { logoURI: string; verified: boolean; isNative: boolean } {
  return { logoURI: entry.logoURI ?? "", verified: entry.verified ?? true, isNative };
}
