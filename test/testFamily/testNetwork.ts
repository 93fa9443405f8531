import { randomBytes } from "node:crypto";
import { TestLedger } from "./testChainFamily.js";

/**
 * The in-process "network" of test chains: a chain's entry names its ledger (`ledger`, as an EVM entry names its RPC
 * URL), and the adapter and the poller made from the entry find it here.
 */
const ledgers = new Map<string, TestLedger>();

/** A new ledger on the network, and the name a chain entry reaches it by. */
export function openTestLedger(): { name: string; ledger: TestLedger; close(): void } {
  const name = `ledger-${randomBytes(6).toString("hex")}`;
  const ledger = new TestLedger();
  ledgers.set(name, ledger);
  return { name, ledger, close: () => void ledgers.delete(name) };
}

/** The ledger a chain entry names; an entry naming none that is open is a programming error. */
export function testLedgerAt(name: string): TestLedger {
  const ledger = ledgers.get(name);
  if (!ledger) throw new Error(`no test ledger ${name} is open`);
  return ledger;
}
