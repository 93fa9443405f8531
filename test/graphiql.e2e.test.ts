import { type ServerType, serve } from "@hono/node-server";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStatusBus } from "../src/events/createStatusBus.js";
import { createStatusFanout } from "../src/events/createStatusFanout.js";
import { createTestGraphqlServer } from "./support/createTestGraphqlServer.js";
import { CHROMIUM, haveChromium, launchChromium } from "./support/launchChromium.js";
import { useMigratedDatabase } from "./support/useMigratedDatabase.js";

if (!haveChromium) console.warn(`GraphiQL e2e skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);

describe.skipIf(!haveChromium)("GraphiQL at /graphql (development) in headless Chromium", () => {
  const database = useMigratedDatabase();
  const bus = createStatusBus();
  let graphql: ReturnType<typeof createTestGraphqlServer>;
  let server: ServerType;
  let url: string;
  let browser: Browser;
  beforeAll(async () => {
    graphql = createTestGraphqlServer({ db: database.pool, statusUpdates: createStatusFanout(bus), graphiql: true });
    server = await new Promise<ServerType>((resolve) => {
      const started = serve({ fetch: (request) => graphql.fetch(request), hostname: "127.0.0.1", port: 0 }, () =>
        resolve(started),
      );
    });
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    await graphql?.close();
    await bus.close();
  });

  it("renders from the installed package, asking no other host for anything", async () => {
    const page = await browser.newPage();
    const elsewhere: string[] = [];
    page.on("request", (request) => {
      const { protocol, host } = new URL(request.url());
      if (!["data:", "blob:"].includes(protocol) && host !== new URL(url).host) elsewhere.push(request.url());
    });
    await page.goto(`${url}/graphql`);
    await page.locator(".graphiql-container").first().waitFor({ timeout: 30_000 });
    expect(await page.title()).toBe("Crossfill GraphQL");
    // Yoga's default page stays at "Loading Crossfill GraphQL..." offline; this one has GraphiQL's editors in #root.
    expect((await page.locator("#root").innerText()).includes("Loading")).toBe(false);
    expect(await page.locator("#root .graphiql-editor").count()).toBeGreaterThan(0);
    expect(elsewhere).toEqual([]);
    await page.close();
  }, 60_000);
});
