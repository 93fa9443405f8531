/**
 * For a loop that fails the same way pass after pass (a database down, views not there yet): `failed` reports an
 * error only when it differs from the previous pass's, and `succeeded` forgets it, so one outage is one log line.
 */
export function reportNewErrors(report: (error: unknown) => void): { failed(error: unknown): void; succeeded(): void } {
  let lastMessage: string | undefined;
  return {
    failed(error) {
      const message = error instanceof Error ? error.message : String(error);
      if (message !== lastMessage) report(error);
      lastMessage = message;
    },
    succeeded() {
      lastMessage = undefined;
    },
  };
}
