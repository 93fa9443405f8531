import { describe, expect, it } from "vitest";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { listOpenOperatorAlerts, raiseOperatorAlert, resolveOperatorAlert } from "./operatorAlerts.js";

describe("operator alerts", () => {
  const database = useMigratedDatabase();

  it("raises an alert once per kind and subject, lists it open until resolved", async () => {
    const alert = { kind: "REFUND_REVERTED" as const, subject: "7", details: { txHash: "0xabc", amount: 5n } };
    expect(await raiseOperatorAlert(database.pool, alert)).toBe(true);
    expect(await raiseOperatorAlert(database.pool, alert)).toBe(false);
    const [open] = await listOpenOperatorAlerts(database.pool);
    expect(open).toMatchObject({ kind: "REFUND_REVERTED", subject: "7", details: { txHash: "0xabc", amount: "5" } });
    expect(await resolveOperatorAlert(database.pool, open.id, "paid by hand")).toBe(true);
    expect(await resolveOperatorAlert(database.pool, open.id, "again")).toBe(false);
    expect(await listOpenOperatorAlerts(database.pool)).toEqual([]);
  });
});
