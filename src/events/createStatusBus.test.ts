import { createServer } from "node:net";
import { describe, expect, it, vi } from "vitest";
import { createStatusBus } from "./createStatusBus.js";

/** A port nothing listens on: Redis connections to it are refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("createStatusBus on Redis", () => {
  it("hands its clients' connection errors to onError, not to stderr", async () => {
    const consoleError = vi.spyOn(console, "error");
    try {
      const errors: string[] = [];
      const bus = createStatusBus({
        redisUrl: `redis://127.0.0.1:${await closedPort()}`,
        prefix: "test-unreachable",
        onError: (error, source) => errors.push(`${source}: ${(error as Error & { code?: string }).code}`),
      });
      await vi.waitFor(() =>
        expect(new Set(errors)).toEqual(
          new Set(["status bus publisher: ECONNREFUSED", "status bus subscriber: ECONNREFUSED"]),
        ),
      );
      await bus.close().catch(() => undefined);
      expect(consoleError).not.toHaveBeenCalled();
    } finally {
      consoleError.mockRestore();
    }
  });
});
