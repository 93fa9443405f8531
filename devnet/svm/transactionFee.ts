import type { PublicKey, VersionedMessage } from "@solana/web3.js";

export const lamportsPerSignature = 5_000n;
const computeBudgetProgramId = "ComputeBudget111111111111111111111111111111";
const defaultUnitsPerInstruction = 200_000n;
const maxComputeUnits = 1_400_000n;

/**
 * The fee Solana charges for a message: 5,000 lamports per signature (including those of the ed25519/secp256k1
 * precompiles, which the devnet does not use) plus the priority fee, the compute-unit price (micro-lamports)
 * times the compute-unit limit, rounded up.
 */
export function transactionFee(message: VersionedMessage, accountKeys: PublicKey[]): bigint {
  let unitLimit: bigint | undefined;
  let microLamportsPerUnit = 0n;
  let otherInstructions = 0n;
  for (const ix of message.compiledInstructions) {
    if (accountKeys[ix.programIdIndex].toBase58() !== computeBudgetProgramId) {
      otherInstructions += 1n;
      continue;
    }
    const view = new DataView(ix.data.buffer, ix.data.byteOffset, ix.data.byteLength);
    if (ix.data[0] === 2 && ix.data.length >= 5) unitLimit = BigInt(view.getUint32(1, true));
    if (ix.data[0] === 3 && ix.data.length >= 9) microLamportsPerUnit = view.getBigUint64(1, true);
  }
  const units = unitLimit ?? otherInstructions * defaultUnitsPerInstruction;
  const limit = units > maxComputeUnits ? maxComputeUnits : units;
  const priority = (microLamportsPerUnit * limit + 999_999n) / 1_000_000n;
  return BigInt(message.header.numRequiredSignatures) * lamportsPerSignature + priority;
}
