/** One target of a benchmark and how the measurement compares. */
export type Target = { metric: string; target: string; measured: number | string; met: boolean };
