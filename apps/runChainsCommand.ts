import { parseArgs } from "node:util";
import type pg from "pg";
import { listChainHeads } from "../schema/chainHeads.js";
import { listChainSwitches, setChainSwitch } from "../schema/chainSwitches.js";

export const CHAINS_USAGE = `usage: crossfill chains <command>
  list                                  each chain's switches and the head its indexer last saw
  disable <chainId> [--reason <text>]   take no new quotes to or from the chain (every gateway within a second)
  enable <chainId>                      take quotes again
  limit <chainId> <usd>|none            take quotes up to this USD value only (partialDisableLimit), or lift it`;

const USD = /^\d+(\.\d+)?$/;

/** The operator's incident switches; returns the process exit code. */
export async function runChainsCommand(pool: pg.Pool, argv: string[], print: (line: string) => void): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { reason: { type: "string" } } });
  } catch (error) {
    print(`${(error as Error).message}\n${CHAINS_USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, chainArg, limitArg] = positionals;
  if (command === "list") {
    const heads = new Map((await listChainHeads(pool)).map((head) => [head.chainId, head]));
    for (const s of await listChainSwitches(pool)) {
      const head = heads.get(s.chainId);
      heads.delete(s.chainId);
      print(JSON.stringify({ ...s, head: head && { ...head, blockNumber: head.blockNumber.toString() } }));
    }
    for (const head of heads.values()) {
      print(
        JSON.stringify({
          chainId: head.chainId,
          disabled: false,
          head: { ...head, blockNumber: head.blockNumber.toString() },
        }),
      );
    }
    return 0;
  }
  const chainId = Number(chainArg);
  if (!Number.isSafeInteger(chainId) || chainId <= 0) {
    print(`${chainArg === undefined ? "a chain id is required" : `not a chain id: ${chainArg}`}\n${CHAINS_USAGE}`);
    return 2;
  }
  let change: Parameters<typeof setChainSwitch>[2];
  if (command === "disable") change = { disabled: true, reason: values.reason ?? null };
  else if (command === "enable") change = { disabled: false, reason: null };
  else if (
    command === "limit" &&
    limitArg !== undefined &&
    (limitArg === "none" || (USD.test(limitArg) && Number(limitArg) > 0))
  ) {
    change = { partialDisableLimitUsd: limitArg === "none" ? null : limitArg };
  } else {
    print(CHAINS_USAGE);
    return 2;
  }
  print(JSON.stringify(await setChainSwitch(pool, chainId, change)));
  return 0;
}
