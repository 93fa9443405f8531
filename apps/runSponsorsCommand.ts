import { parseArgs } from "node:util";
import type pg from "pg";
import { failCommand } from "./failCommand.js";
import { setKeySponsoring } from "../schema/apiKeys.js";
import { fundSponsor, listSponsorBalances } from "../schema/sponsorLedger.js";
import { withTransaction } from "../schema/withTransaction.js";
import { formatAmount, parseDecimal } from "../src/domain/money.js";

export const SPONSORS_USAGE = `usage: crossfill sponsors <command>
  fund <integrator> <usd> [--note <text>]   add USD (e.g. 250 or 0.5) to the integrator's fee sponsorship balance
  withdraw <integrator> <usd> [--note ...]  take USD back out of it
  list                                      every sponsor's balance in USD
  allow <key id> [--off]                    let that key quote with subsidizeFees (--off: no longer); no key may
                                            sponsor fees until an operator allows it`;

const USD = /^\d{1,15}(\.\d{1,6})?$/;

/** The operator's sponsorship commands: the balance integrators' `subsidizeFees` quotes draw on. */
export async function runSponsorsCommand(
  pool: pg.Pool,
  argv: string[],
  print: (line: string) => void,
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { note: { type: "string" }, off: { type: "boolean", default: false } },
    });
  } catch (error) {
    // A negative amount reads as an unknown option: answer with the usage, not a stack trace.
    return failCommand(print, `${(error as Error).message}\n${SPONSORS_USAGE}`);
  }
  const { values, positionals } = parsed;
  const [command, integrator, usd] = positionals;
  if (command === "list") {
    for (const sponsor of await listSponsorBalances(pool))
      print(JSON.stringify({ integrator: sponsor.integrator, balanceUsd: formatAmount(sponsor.balance, 6) }));
    return 0;
  }
  if (command === "allow" && integrator && positionals.length === 2) {
    const keyId = integrator;
    if (!(await setKeySponsoring(pool, keyId, !values.off))) return failCommand(print, `no key with id ${keyId}`);
    print(values.off ? `${keyId} may no longer sponsor fees` : `${keyId} may sponsor fees (subsidizeFees)`);
    return 0;
  }
  if ((command === "fund" || command === "withdraw") && integrator && usd) {
    if (!USD.test(usd)) return failCommand(print, `<usd> must be a positive amount with at most 6 decimals: ${usd}`);
    const micro = parseDecimal(usd, 6);
    if (micro === 0n) return failCommand(print, "<usd> must be above 0");
    const balance = await withTransaction(pool, (db) =>
      fundSponsor(db, {
        integrator,
        amountMicroUsd: command === "fund" ? micro : -micro,
        note: values.note ?? `crossfill sponsors ${command}`,
      }),
    );
    print(
      `sponsor ${integrator}: ${command === "fund" ? "+" : "-"}${usd} USD, balance ${formatAmount(balance, 6)} USD`,
    );
    return 0;
  }
  print(SPONSORS_USAGE);
  return 2;
}
