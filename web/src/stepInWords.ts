import { durationInWords } from "./durationInWords";

// What reaching each status means, so the time since the step before reads as a sentence ("filled in 1.1 s").
const STEPS: Record<string, string> = {
  depositing: "deposit seen after",
  pending: "deposit confirmed after",
  submitted: "fill sent in",
  success: "filled in",
  failure: "failed after",
  refund: "refunded in",
};

/**
 * How long the step to each status took, from the status events (oldest first): `undefined` for the first (the
 * quote) and for a status without a step's name.
 */
export function stepInWords(events: { status: string; createdAt: string }[], index: number): string | undefined {
  const step = STEPS[events[index]?.status];
  if (index === 0 || !step) return undefined;
  return `${step} ${durationInWords(Date.parse(events[index].createdAt) - Date.parse(events[index - 1].createdAt))}`;
}
