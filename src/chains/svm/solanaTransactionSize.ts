import type { MessageV0 } from "@solana/web3.js";

/** The bytes Solana's shortvec encoding takes for a length. */
const shortvecLength = (value: number) => (value < 0x80 ? 1 : value < 0x4000 ? 2 : 3);

/**
 * The wire size of a v0 transaction of `message` once signed: shortvec(signatures) + 64 bytes a signature + the
 * message. Counted rather than serialised: web3.js throws (or returns more bytes than a node takes) past 1,232.
 */
export function solanaTransactionSize(message: MessageV0): number {
  const signatures = message.header.numRequiredSignatures;
  const keys = message.staticAccountKeys.length;
  let size = shortvecLength(signatures) + 64 * signatures;
  // Version prefix, the three header bytes, the keys, the recent blockhash.
  size += 1 + 3 + shortvecLength(keys) + 32 * keys + 32;
  size += shortvecLength(message.compiledInstructions.length);
  for (const instruction of message.compiledInstructions) {
    const accounts = instruction.accountKeyIndexes.length;
    const data = instruction.data.length;
    size += 1 + shortvecLength(accounts) + accounts + shortvecLength(data) + data;
  }
  size += shortvecLength(message.addressTableLookups.length);
  for (const lookup of message.addressTableLookups)
    size +=
      32 +
      shortvecLength(lookup.writableIndexes.length) +
      lookup.writableIndexes.length +
      shortvecLength(lookup.readonlyIndexes.length) +
      lookup.readonlyIndexes.length;
  return size;
}

/** The most bytes a Solana transaction may take on the wire (Agave's PACKET_DATA_SIZE less headers). */
export const SOLANA_MAX_TRANSACTION_SIZE = 1232;
