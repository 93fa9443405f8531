// A cell a spreadsheet would run as a formula (=, +, -, @, tab, carriage return first) is prefixed with a quote.
const FORMULA = /^[=+\-@\t\r]/;

/** Rows as CSV (RFC 4180: comma-separated, CRLF line ends, quoted when needed), safe to open in a spreadsheet. */
export function toCsv(rows: ReadonlyArray<ReadonlyArray<string | number | null | undefined>>): string {
  return rows
    .map((row) =>
      row
        .map((cell) => {
          const text = cell === null || cell === undefined ? "" : String(cell);
          const safe = FORMULA.test(text) ? `'${text}` : text;
          return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
        })
        .join(","),
    )
    .join("\r\n")
    .concat("\r\n");
}
