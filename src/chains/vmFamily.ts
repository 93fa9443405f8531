/** How one chain family writes addresses: what is valid, how it is shown, how two are compared. */
export type AddressCodec = {
  /** The address in the family's canonical form (EVM: checksummed), or undefined when it is not one. */
  parse(value: string): string | undefined;
  /** The form addresses are indexed and compared by (EVM: lower case); only for values `parse` accepts. */
  key(address: string): string;
};

/**
 * What every chain of one VM family shares, known without any chain configured: its address and hash formats. `V`
 * is the family's vmType (VmType, of src/chains/adapter.ts, is the union FAMILIES makes of them).
 */
export type VmFamily<V extends string = string> = {
  readonly vmType: V;
  /** How currencies key the family's native currency (EVM: the zero address). */
  readonly nativeCurrency: string;
  readonly address: AddressCodec;
  /** The transaction hash in canonical form, or undefined when it is not one of this family. */
  parseTransactionHash(value: string): string | undefined;
};
