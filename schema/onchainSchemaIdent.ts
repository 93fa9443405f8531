/** Where Ponder publishes its views (`ponder start --views-schema`). */
export type OnchainSchema = string;

/** The views schema as a quoted SQL identifier; anything but a plain lowercase name is refused. */
export function onchainSchemaIdent(name: OnchainSchema): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsafe schema name: ${name}`);
  return `"${name}"`;
}
