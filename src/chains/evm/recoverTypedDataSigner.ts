import { type TypedDataDefinition, recoverTypedDataAddress } from "viem";

/** The address that signed EIP-712 typed data (checksummed); throws when the signature is malformed. */
export function recoverTypedDataSigner(typedData: TypedDataDefinition, signature: string): Promise<string> {
  return recoverTypedDataAddress({ ...typedData, signature: signature as `0x${string}` });
}
