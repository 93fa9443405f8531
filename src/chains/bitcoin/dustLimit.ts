/** A segwit output script: a version opcode (OP_0, OP_1…OP_16) and one push of 2 to 40 bytes (BIP141). */
function isWitnessProgram(script: Uint8Array): boolean {
  const version = script[0]!;
  return (
    script.length >= 4 &&
    script.length <= 42 &&
    (version === 0x00 || (version >= 0x51 && version <= 0x60)) &&
    script[1] === script.length - 2
  );
}

/**
 * The smallest value nodes relay in an output with this script (bitcoind's dust threshold at its default 3 sat/vB
 * dust relay fee): what creating the output and spending it later would cost. 294 for P2WPKH, 330 for P2TR.
 */
export function dustLimit(script: Uint8Array): bigint {
  const output = 8 + 1 + script.length;
  // Spending it: outpoint, sequence and script length, then the signature data (witness data counts a quarter).
  const spend = isWitnessProgram(script) ? 32 + 4 + 1 + 4 + Math.floor(107 / 4) : 32 + 4 + 1 + 107 + 4;
  return BigInt(output + spend) * 3n;
}
