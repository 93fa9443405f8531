/** Request statuses of the spec and the only moves between them. */
export const REQUEST_STATUSES = [
  "waiting",
  "depositing",
  "pending",
  "submitted",
  "success",
  "failure",
  "refund",
] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

const TRANSITIONS: Record<RequestStatus, readonly RequestStatus[]> = {
  waiting: ["depositing", "pending", "failure"],
  depositing: ["pending", "failure"],
  pending: ["submitted", "success", "failure"],
  // A fill can be re-sent (gas bump) while submitted, so submitted → submitted is a recorded move too.
  submitted: ["submitted", "success", "failure"],
  success: [],
  failure: ["refund"],
  refund: [],
};

export function canTransition(from: RequestStatus, to: RequestStatus): boolean {
  return TRANSITIONS[from].includes(to);
}
