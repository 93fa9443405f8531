/** The counts one reconcile pass reports (what reconcile returns). */
export type ReconcileResult = { deposits: number; fills: number; refunds: number; requeued: number };
