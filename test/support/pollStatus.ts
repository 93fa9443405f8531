/** Polls GET /intents/status/v3 until `done` holds, recording every distinct status seen in order. */
export async function pollStatus(
  apiUrl: string,
  requestId: string,
  options: { until?: readonly string[]; timeoutMs?: number; intervalMs?: number } = {},
): Promise<{ statuses: string[]; last: Record<string, unknown> }> {
  const until = options.until ?? ["success", "failure", "refund"];
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  const statuses: string[] = [];
  let last: Record<string, unknown> = {};
  while (Date.now() < deadline) {
    const response = await fetch(`${apiUrl}/intents/status/v3?requestId=${requestId}`);
    last = (await response.json()) as Record<string, unknown>;
    const status = String(last.status);
    if (statuses.at(-1) !== status) statuses.push(status);
    if (until.includes(status)) return { statuses, last };
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 20));
  }
  throw new Error(`request ${requestId} did not reach ${until.join("/")} in time; seen ${statuses.join(" → ")}`);
}
