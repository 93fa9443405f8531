import type { StatusEventRecord } from "../../../../schema/statusEvents.js";
import { builder } from "../builder.js";
import { RequestStatusEnum } from "./requestStatus.js";

export const StatusEventRef = builder.objectRef<StatusEventRecord>("StatusEvent").implement({
  description: "One status change of a request, in the order they happened: the request's timeline.",
  fields: (t) => ({
    id: t.exposeID("id"),
    fromStatus: t.field({ type: RequestStatusEnum, nullable: true, resolve: (event) => event.fromStatus }),
    status: t.field({ type: RequestStatusEnum, resolve: (event) => event.toStatus }),
    failReason: t.exposeString("failReason", { nullable: true }),
    refundFailReason: t.exposeString("refundFailReason", { nullable: true }),
    details: t.field({
      type: "JSON",
      nullable: true,
      description: "What the change recorded, e.g. the deposit transaction.",
      resolve: (event) => event.details,
    }),
    createdAt: t.field({ type: "DateTime", resolve: (event) => event.createdAt }),
  }),
});
