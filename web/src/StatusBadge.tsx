// A symbol and the status word: readable without colour, and colour only reinforces it.
const SYMBOLS: Record<string, string> = {
  waiting: "○",
  depositing: "◔",
  pending: "◑",
  submitted: "◕",
  success: "✓",
  failure: "✗",
  refund: "↩",
};

/** A request status as text, with a symbol. */
export function StatusBadge({ status }: { status: string }) {
  return (
    <span class={`status status-${status}`} data-status={status}>
      <span aria-hidden="true">{SYMBOLS[status] ?? "•"} </span>
      {status}
    </span>
  );
}
