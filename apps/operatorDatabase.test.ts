import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseConfig } from "../src/config.js";
import { apiKeyEncryptionKey } from "../src/roleSettings.js";
import { operatorDatabase } from "./operatorDatabase.js";

describe("operatorDatabase", () => {
  const dir = mkdtempSync(join(tmpdir(), "crossfill-operator-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const manifest = (fields: object) => writeFileSync(join(dir, "manifest.json"), JSON.stringify(fields));
  const ownKey = "11".repeat(32);
  const devnetUrl = "postgres://postgres:password@127.0.0.1:54329/crossfill";

  it("takes DATABASE_URL first, even beside a devnet manifest", () => {
    manifest({ databaseUrl: devnetUrl, apiKeyEncryptionKey: "devnet default" });
    const config = parseConfig({
      CROSSFILL_DATA_DIR: dir,
      DATABASE_URL: "postgres://db/prod",
      API_KEY_ENCRYPTION_KEY: ownKey,
    });
    const found = operatorDatabase(config, "keys");
    expect([found.databaseUrl, found.manifestPath]).toEqual(["postgres://db/prod", undefined]);
    expect(found.encryptionKey().toString("hex")).toBe(ownKey);
  });

  it("uses the devnet manifest's database and the key its API keys are sealed with", () => {
    manifest({ databaseUrl: devnetUrl, apiKeyEncryptionKey: "devnet default" });
    // An API_KEY_ENCRYPTION_KEY in this shell does not replace the one the devnet sealed its keys with.
    const found = operatorDatabase(parseConfig({ CROSSFILL_DATA_DIR: dir, API_KEY_ENCRYPTION_KEY: ownKey }), "keys");
    expect(found).toMatchObject({ databaseUrl: devnetUrl, manifestPath: join(dir, "manifest.json") });
    expect(found.encryptionKey()).toEqual(apiKeyEncryptionKey(parseConfig({}), "dev"));

    manifest({ databaseUrl: devnetUrl, apiKeyEncryptionKey: "API_KEY_ENCRYPTION_KEY" });
    expect(() => operatorDatabase(parseConfig({ CROSSFILL_DATA_DIR: dir }), "keys").encryptionKey()).toThrow(
      /API_KEY_ENCRYPTION_KEY is required for crossfill keys: the devnet in .* seals API keys with it/,
    );
    const withKey = operatorDatabase(parseConfig({ CROSSFILL_DATA_DIR: dir, API_KEY_ENCRYPTION_KEY: ownKey }), "keys");
    expect(withKey.encryptionKey().toString("hex")).toBe(ownKey);
  });

  it("says what to do when there is neither, or the devnet cannot tell", () => {
    const empty = mkdtempSync(join(tmpdir(), "crossfill-operator-none-"));
    try {
      expect(() => operatorDatabase(parseConfig({ CROSSFILL_DATA_DIR: empty }), "chains")).toThrow(
        /DATABASE_URL is required for crossfill chains: set it to the service's database, or start the devnet \(npm start\)/,
      );
    } finally {
      rmSync(empty, { recursive: true });
    }
    manifest({ databaseUrl: null, apiKeyEncryptionKey: "devnet default" });
    expect(() => operatorDatabase(parseConfig({ CROSSFILL_DATA_DIR: dir }), "sponsors")).toThrow(
      /runs on DATABASE_URL: set DATABASE_URL for crossfill sponsors as npm start had it/,
    );
    manifest({ apiUrl: "http://127.0.0.1:4000" });
    expect(() => operatorDatabase(parseConfig({ CROSSFILL_DATA_DIR: dir }), "keys")).toThrow(
      /written by an older npm start: restart it, or set DATABASE_URL/,
    );
  });
});
