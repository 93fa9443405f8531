/**
 * A Wrap or an Unwrap: filled by converting through the chain's wrapped native (WETH9 `deposit`/`withdraw`), so the
 * solver spends the request's input currency (ether to wrap, WETH to unwrap), not inventory of its output.
 */
export type NativeConversion = "wrap" | "unwrap";

export function nativeConversionOf(requestType: string): NativeConversion | undefined {
  if (requestType === "Wrap") return "wrap";
  if (requestType === "Unwrap") return "unwrap";
  return undefined;
}
