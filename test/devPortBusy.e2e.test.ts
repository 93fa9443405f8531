import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

// Issue 29, defect 6: a busy API port failed `npm start` after 18 s of start-up with a raw EADDRINUSE.
describe("npm start with the API port taken", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "crossfill-dev-busy-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("stops before starting anything, naming the port and PORT=", async () => {
    const server = createServer();
    const port = await new Promise<number>((resolve) =>
      server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)),
    );
    try {
      const child = spawn(process.execPath, ["--import", "tsx", "apps/cli.ts", "dev"], {
        cwd: fileURLToPath(new URL("..", import.meta.url)),
        env: {
          PATH: process.env.PATH ?? "",
          HOME: process.env.HOME ?? "/root",
          PORT: String(port),
          CROSSFILL_DATA_DIR: dataDir,
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (chunk) => (output += chunk));
      child.stderr.on("data", (chunk) => (output += chunk));
      const code = await new Promise((resolve) => child.once("exit", resolve));
      expect({ code, output }).toMatchObject({
        code: 1,
        output: expect.stringContaining(`the API: port ${port} on 127.0.0.1 is in use (set PORT= to another port)`),
      });
      // Nothing was started: no chain, no database.
      expect(output).not.toMatch(/embedded postgres started|anvil/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
