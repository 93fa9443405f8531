/** An operator command's refusal: one `error:` line, and exit code 1. */
export function failCommand(print: (line: string) => void, message: string): number {
  print(`error: ${message}`);
  return 1;
}
