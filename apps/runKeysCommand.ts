import { parseArgs } from "node:util";
import type pg from "pg";
import { listApiKeys, revokeApiKey, setKeyManagement, setKeyOraclePricing } from "../schema/apiKeys.js";
import { createApiKey } from "../src/apiKeys/createApiKey.js";

export const KEYS_USAGE = `usage: crossfill keys create --name N [--integrator I] [--elevated] [--manage]
       crossfill keys list
       crossfill keys revoke <key id>
       crossfill keys manage <key id> [--off]   (may create, rename and revoke its integrator's keys in the dashboard)
       crossfill keys oracle-pricing <key id> <bps> | --off
                                            (its quotes: the oracle rate less <bps> (0-9999), which carry the fill's
                                            gas instead of the service fee; --off: the normal pricing again)`;

const BPS = /^\d{1,4}$/;

/** The positionals of a setting's command and its `--off`. */
const withOff = (args: string[]) =>
  parseArgs({ args, options: { off: { type: "boolean", default: false } }, allowPositionals: true, strict: true });

/** `crossfill keys …`: returns the text to print; the plain key appears only in the output of `create`. */
export async function runKeysCommand(pool: pg.Pool, serverKey: Buffer, argv: string[]): Promise<string> {
  const [action, ...rest] = argv;
  switch (action) {
    case "create": {
      const { values } = parseArgs({
        args: rest,
        options: {
          name: { type: "string" },
          integrator: { type: "string" },
          elevated: { type: "boolean", default: false },
          manage: { type: "boolean", default: false },
        },
        strict: true,
      });
      if (!values.name?.trim()) throw new Error(`--name is required\n${KEYS_USAGE}`);
      // A key of an integrator sees its authenticated data: joining one must be asked for, never a name clash.
      const integrator = values.name.trim();
      if (
        values.integrator === undefined &&
        (await listApiKeys(pool)).some((existing) => existing.integrator === integrator)
      ) {
        throw new Error(
          `integrator "${integrator}" already has keys: pass --integrator ${integrator} to add one to it, or choose another name`,
        );
      }
      const key = await createApiKey(pool, serverKey, {
        name: values.name,
        integrator: values.integrator,
        elevated: values.elevated,
        managesKeys: values.manage,
      });
      return [
        `id:         ${key.id}`,
        `name:       ${key.name}`,
        `integrator: ${key.integrator}`,
        `elevated:   ${key.elevated}`,
        `manages:    ${key.managesKeys}`,
        `key:        ${key.key}`,
        "The key is shown once; only its hash is stored.",
      ].join("\n");
    }
    case "list": {
      const keys = await listApiKeys(pool);
      if (keys.length === 0) return "no API keys";
      return keys
        .map((key) =>
          [
            key.id,
            key.name ?? "-",
            key.integrator,
            key.elevated ? "elevated" : "standard",
            ...(key.managesKeys ? ["manages keys"] : []),
            ...(key.sponsors ? ["sponsors fees"] : []),
            ...(key.oraclePricingBps !== null ? [`oracle pricing ${key.oraclePricingBps} bps`] : []),
            key.revokedAt ? `revoked ${key.revokedAt.toISOString()}` : "active",
            key.createdAt.toISOString(),
          ].join("\t"),
        )
        .join("\n");
    }
    case "revoke": {
      const id = rest[0];
      if (!id) throw new Error(`a key id is required\n${KEYS_USAGE}`);
      if (!(await revokeApiKey(pool, id))) throw new Error(`no active key with id ${id}`);
      return `revoked ${id}`;
    }
    case "manage": {
      const { values, positionals } = withOff(rest);
      const id = positionals[0];
      if (!id || positionals.length > 1) throw new Error(`one key id is required\n${KEYS_USAGE}`);
      if (!(await setKeyManagement(pool, id, !values.off))) throw new Error(`no key with id ${id}`);
      return values.off ? `${id} no longer manages keys` : `${id} manages its integrator's keys`;
    }
    case "oracle-pricing": {
      const { values, positionals } = withOff(rest);
      const [id, bps] = positionals;
      if (!id || positionals.length !== (values.off ? 1 : 2) || (bps !== undefined && !BPS.test(bps)))
        throw new Error(`a key id and bps from 0 to 9999 (or --off) are required\n${KEYS_USAGE}`);
      if (!(await setKeyOraclePricing(pool, id, values.off ? null : BigInt(bps))))
        throw new Error(`no key with id ${id}`);
      return values.off
        ? `${id} is priced normally`
        : `${id} is quoted at the oracle rate less ${BigInt(bps)} bps (fixed-bps oracle pricing)`;
    }
    default:
      throw new Error(KEYS_USAGE);
  }
}
