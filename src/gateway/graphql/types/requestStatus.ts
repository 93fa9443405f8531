import { REQUEST_STATUSES } from "../../../domain/requestStatus.js";
import { builder } from "../builder.js";

export const RequestStatusEnum = builder.enumType("RequestStatus", {
  description: "The spec's request statuses, lower-case as in REST.",
  values: Object.fromEntries(REQUEST_STATUSES.map((status) => [status, { value: status }])) as Record<
    (typeof REQUEST_STATUSES)[number],
    { value: (typeof REQUEST_STATUSES)[number] }
  >,
});
