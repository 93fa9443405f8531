/** A fail reason code in words ("SOLVER_BALANCE_TOO_LOW" → "Solver balance too low"); the code stays beside it. */
export function reasonInWords(code: string): string {
  const words = code.toLowerCase().replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}
