import { createHmac, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type CreatedApiKey, createApiKey } from "../src/apiKeys/createApiKey.js";
import { transitionRequest } from "../schema/transitionRequest.js";
import { insertTestRequest } from "./support/insertTestRequest.js";
import { insertChildRequest } from "../schema/requests.js";
import { CHROMIUM, haveChromium, launchChromium } from "./support/launchChromium.js";
import { pollStatus } from "./support/pollStatus.js";
import { postGraphql } from "./support/postGraphql.js";
import { quoteWithKey } from "./support/quoteWithKey.js";
import { sendSteps } from "./support/sendSteps.js";
import { type TestStack, startTestStack } from "./support/startTestStack.js";

const IMAGES = new URL("../docs/images/", import.meta.url);
// The README's pictures are taken again only when asked, so a test run leaves the tree as it was.
const screenshot = (page: Page, name: string) =>
  process.env.UPDATE_SCREENSHOTS
    ? page.screenshot({ path: new URL(name, IMAGES).pathname, fullPage: true })
    : undefined;

type Received = { body: any; headers: http.IncomingHttpHeaders; valid: boolean };

if (!haveChromium) console.warn(`dashboard e2e skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);

describe.skipIf(!haveChromium)("the integrator dashboard in headless Chromium", () => {
  let stack: TestStack;
  let browser: Browser;
  let receiver: http.Server;
  const received: Received[] = [];
  let admin: CreatedApiKey;
  let stranger: CreatedApiKey;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startTestStack(), launchChromium()]);
    admin = await createApiKey(stack.pool, stack.serverKey, {
      name: "acme-admin",
      integrator: "acme",
      managesKeys: true,
    });
    stranger = await createApiKey(stack.pool, stack.serverKey, { name: "globex", integrator: "globex" });
    // The integrator's receiver: checks the signature with the key, answers 200.
    receiver = http.createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        const expected = createHmac("sha256", admin.key)
          .update(`${req.headers["x-signature-timestamp"]}.${body}`)
          .digest();
        const given = Buffer.from(String(req.headers["x-signature-sha256"] ?? ""), "hex");
        received.push({
          body: JSON.parse(body),
          headers: req.headers,
          valid: given.length === expected.length && timingSafeEqual(given, expected),
        });
        res.statusCode = 200;
        res.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  }, 120_000);
  afterAll(async () => {
    receiver?.closeAllConnections();
    receiver?.close();
    await browser?.close();
    await stack?.stop();
  });

  async function openPage(width = 1024): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
    const context = await browser.newContext({
      viewport: { width, height: 900 },
      permissions: ["clipboard-read", "clipboard-write"],
    });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    page.on("console", (message) => message.type() === "error" && problems.push(message.text()));
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.protocol !== "blob:" && url.host !== new URL(stack.api.url).host)
        problems.push(`fetched ${request.url()}`);
    });
    return { context, page, problems };
  }
  const showing = (locator: Locator, text: RegExp, timeout = 30_000) =>
    locator.filter({ hasText: text }).first().waitFor({ timeout });
  async function signIn(page: Page, key: string) {
    await page.goto(`${stack.api.url}/explorer/dashboard`);
    await page.getByLabel("API key").fill(key);
    await page.keyboard.press("Enter");
    await page.getByText(/Signed in as/).waitFor();
  }
  // One real bridge quoted with the admin key (referrer acme-web), deposited and filled: shared by the tests that need it.
  let bridge: Promise<string> | undefined;
  const bridgedRequest = () =>
    (bridge ??= (async () => {
      const [origin, destination] = stack.devnet.chains;
      const user = stack.devnet.accounts[2];
      const quote = await quoteWithKey(stack.api.url, admin.key, {
        user,
        recipient: stack.devnet.accounts[3],
        origin,
        destination,
        extra: { referrer: "acme-web" },
      });
      await sendSteps(quote, user, origin);
      expect((await pollStatus(stack.api.url, quote.requestId)).last.status).toBe("success");
      // Its fill time is known with the success (the receipt's fill is recorded with it): no wait for the indexer.
      expect(
        (await stack.pool.query("SELECT 1 FROM crossfill.request_fills WHERE request_id = $1", [quote.requestId]))
          .rowCount,
      ).toBe(1);
      return quote.requestId;
    })());
  /** Fails a quoted request as the fill job records it (pending, then failure with the reason). */
  async function failRequest(requestId: string, failReason: "SOLVER_BALANCE_TOO_LOW" | "SLIPPAGE") {
    const client = await stack.pool.connect();
    try {
      await client.query("BEGIN");
      await transitionRequest(client, { requestId, to: "pending" });
      await transitionRequest(client, { requestId, to: "failure", failReason });
      await client.query("COMMIT");
    } finally {
      client.release();
    }
  }
  const waitFor = async (what: string, check: () => boolean, timeout = 30_000) => {
    const deadline = Date.now() + timeout;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  it("signs in with a key kept for the tab only, creates a key shown once with a copy button, and revokes it", async () => {
    const { context, page, problems } = await openPage();
    await page.goto(`${stack.api.url}/explorer/dashboard`);
    await page.getByLabel("API key").fill("cf_not-a-key");
    await page.getByRole("button", { name: "Sign in" }).click();
    await showing(page.getByRole("alert"), /this is not a known API key: check it/);
    expect(await page.getByRole("alert").textContent()).not.toContain("x-api-key");
    // The browser logs the refused request (401) as a console error: that one was asked for.
    expect(problems).toEqual([expect.stringContaining("401")]);
    problems.length = 0;
    await signIn(page, admin.key);
    await page.getByText("Signed in as acme-admin of integrator acme (manages keys)").waitFor();
    expect(await page.evaluate(() => Object.values(sessionStorage))).toEqual([admin.key]);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    const cards = page.locator("li.card");
    await showing(cards, /acme-admin/);
    // Only the integrator's own keys.
    expect(await page.locator("main").textContent()).not.toContain(stranger.id);

    await page.getByLabel("New key's name").fill("ci-deploy");
    await page.getByRole("button", { name: "Create key" }).click();
    const secret = (await page.getByLabel("The new API key").textContent())!.trim();
    expect(secret).toMatch(/^cf_[A-Za-z0-9_-]{43}$/);
    await page.getByRole("button", { name: "Copy key" }).click();
    await page.getByRole("status").filter({ hasText: "Copied" }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await screenshot(page, "dashboard-keys.png");
    // The key works, and is one of acme's.
    expect((await postGraphql(stack.api.url, "{ viewer { name integrator } }", {}, secret)).data.viewer).toEqual({
      name: "ci-deploy",
      integrator: "acme",
    });
    await page.getByRole("button", { name: "I have stored it" }).click();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("new-key-name");
    expect(await page.locator("main").textContent()).not.toContain(secret);
    const card = cards.filter({ hasText: "ci-deploy" });
    await showing(card, /active/);

    // Another tab signed in with the new key: it is signed out at its next read once the key is revoked.
    const other = await openPage(390);
    await signIn(other.page, secret);
    await other.page.getByText("Signed in as ci-deploy of integrator acme").waitFor();
    // Without management: no key creation, and no revocation buttons.
    expect(await other.page.getByRole("button", { name: "Create key" }).count()).toBe(0);
    expect(await other.page.getByRole("button", { name: /^Revoke/ }).count()).toBe(0);
    expect(await other.page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);

    // Keyboard only: Revoke moves the focus to the confirmation's safe choice; Keep it returns it to Revoke.
    const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim());
    await card.getByRole("button", { name: "Revoke ci-deploy" }).focus();
    await page.keyboard.press("Enter");
    await vi.waitFor(async () => expect(await focused()).toBe("Keep it"));
    await page.keyboard.press("Enter");
    await vi.waitFor(async () => expect(await focused()).toBe("Revoke ci-deploy"));
    await page.keyboard.press("Enter");
    await vi.waitFor(async () => expect(await focused()).toBe("Keep it"));
    await page.keyboard.press("Shift+Tab");
    expect(await focused()).toBe("Yes, revoke ci-deploy");
    await page.keyboard.press("Enter");
    await showing(card.locator(".key-state"), /revoked/);
    // The buttons pressed are gone: the focus is on the key's card, not lost to the page.
    await vi.waitFor(async () => expect(await focused()).toBe("ci-deploy"));
    // The gateway refuses a revoked key before GraphQL runs (a REST error body, 401).
    expect(await postGraphql(stack.api.url, "{ viewer { id } }", {}, secret)).toMatchObject({
      errorCode: "UNAUTHORIZED",
    });
    await other.page.getByRole("link", { name: "Requests" }).click();
    await other.page.getByRole("heading", { name: "Integrator dashboard" }).waitFor();
    expect(await other.page.evaluate(() => sessionStorage.length)).toBe(0);
    // The page's parallel reads (its keys, its requests) are each refused: 401s, and nothing else.
    expect(other.problems.length).toBeGreaterThan(0);
    expect(other.problems.filter((problem) => !problem.includes("401"))).toEqual([]);
    await other.context.close();

    // Nothing quoted with acme's keys yet: the empty list says how requests get there.
    await page.getByRole("link", { name: "Requests" }).click();
    await showing(page.getByText(/^No requests yet\./), /x-api-key header of POST \/quote/);

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Integrator dashboard" }).waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);

  it("sets the key's webhook to a local receiver, sends a test event, shows each delivery's attempts and replays one", async () => {
    const { context, page, problems } = await openPage();
    await signIn(page, admin.key);
    await page.getByRole("link", { name: "Webhook of acme-admin" }).click();
    await page.getByRole("heading", { name: "Webhook of acme-admin" }).waitFor();
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/crossfill`;
    await page.getByLabel("URL").fill(url);
    await page.getByLabel("Replace the custom headers with these").check();
    // Keyboard: Add header puts the focus in the new row; removing the last row returns it to Add header.
    await page.getByRole("button", { name: "Add header" }).focus();
    await page.keyboard.press("Enter");
    await vi.waitFor(async () =>
      expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Header 1 name"),
    );
    await page.getByRole("button", { name: "Remove header 1" }).focus();
    await page.keyboard.press("Enter");
    await vi.waitFor(async () =>
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Add header"),
    );
    await page.getByRole("button", { name: "Add header" }).click();
    await page.getByLabel("Header 1 name").fill("X-Team");
    await page.getByLabel("Header 1 value").fill("payments");
    await page.getByRole("button", { name: "Save webhook" }).click();
    await showing(page.getByRole("status"), /Webhook saved/);
    await page.getByText("Now: X-Team").waitFor();

    // A header the service sets itself is refused, with the same validation as the CLI and API.
    await page.getByLabel("Replace the custom headers with these").check();
    await page.getByRole("button", { name: "Add header" }).click();
    await page.getByLabel("Header 1 name").fill("X-Signature-SHA256");
    await page.getByLabel("Header 1 value").fill("forged");
    await page.getByRole("button", { name: "Save webhook" }).click();
    await showing(page.getByRole("alert"), /X-Signature-SHA256/);
    await page.getByLabel("Replace the custom headers with these").uncheck();

    await page.getByRole("button", { name: "Send test event" }).click();
    const deliveries = page.locator("li.delivery");
    const test = deliveries.filter({ hasText: "Test event" });
    await showing(test.locator(".delivery-status"), /delivered/);
    await showing(test.locator("table.attempts tbody tr"), /#1.*delivered.*200.*\d+ ms/);
    const testPost = received.find((post) => post.body.event === "webhook.test");
    expect(testPost).toMatchObject({ valid: true, headers: { "x-team": "payments" } });

    // A real request quoted with the key: its status changes are delivered and logged.
    const requestId = await bridgedRequest();
    await waitFor("the success webhook", () => received.some((post) => post.body.data?.status === "success"));
    // Each status change of the request is a delivery of its own, the status it moved to shown in words.
    const success = deliveries
      .filter({ hasText: requestId })
      .filter({ has: page.locator('[data-status="success"].status') });
    await showing(success.locator(".delivery-status"), /delivered/);
    await showing(success.locator("table.attempts tbody tr"), /#1.*delivered.*200/);
    await screenshot(page, "dashboard-webhook.png");

    // Replay the test event: a second generation of attempts, marked for the receiver.
    const posts = received.length;
    await test.getByRole("button", { name: /^Replay delivery/ }).click();
    await showing(test.locator("table.attempts tbody tr"), /replay 1, #1.*delivered.*200/);
    await waitFor("the replayed post", () => received.length > posts);
    expect(received.at(-1)).toMatchObject({
      valid: true,
      body: { event: "webhook.test" },
      headers: { "x-crossfill-replay": "1", "x-crossfill-event-id": testPost!.headers["x-crossfill-event-id"] },
    });
    // Phone width: the attempts tables scroll inside themselves, the page does not.
    await page.setViewportSize({ width: 390, height: 900 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it("lists the integrator's requests only, pages them, filters them and exports the filtered set as CSV", async () => {
    const requestId = await bridgedRequest();
    for (let i = 0; i < 20; i++) await insertTestRequest(stack.pool, { apiKeyId: admin.id });
    // A second payment of one of them: a child request, listed (and counted) as the analytics count it.
    const parent = await insertTestRequest(stack.pool, { apiKeyId: admin.id });
    const child = `0x${"c".repeat(64)}`;
    await insertChildRequest(stack.pool, { id: child, parentId: parent.id, depositor: parent.user, amountIn: 5n });
    const foreign = await insertTestRequest(stack.pool, { apiKeyId: stranger.id, referrer: "acme-web" });
    const { context, page, problems } = await openPage(390);
    await signIn(page, admin.key);
    // Keyboard: the tab link opens the page and the focus lands on its heading.
    await page.getByRole("link", { name: "Requests" }).focus();
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.activeElement?.tagName === "H1");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Requests");
    const summary = page.getByText(/requests? match/);
    await showing(summary, /^23 requests match; page 1\.$/);
    const rows = page.locator("table.requests-table tbody tr");
    expect(await rows.count()).toBe(20);
    await page.getByRole("button", { name: "Next page" }).click();
    await showing(summary, /page 2/);
    expect(await rows.count()).toBe(3);
    expect(await page.getByRole("button", { name: "Next page" }).isDisabled()).toBe(true);
    await page.getByRole("button", { name: "Previous page" }).click();
    await showing(summary, /page 1/);
    expect(await page.locator("main").textContent()).not.toContain(foreign.id.slice(-6));
    // Phone width: the table scrolls inside itself, the page does not.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);

    // Every status the explorer shows can be filtered on: the 21 quoted and the child are waiting.
    await page.getByLabel("waiting").check();
    await page.getByRole("button", { name: "Apply filters" }).click();
    await showing(summary, /^22 requests match; page 1\.$/);
    expect(await page.getByLabel("submitted").count()).toBe(1);
    await page.getByLabel("waiting").uncheck();

    await page.getByLabel("success").check();
    await page.getByLabel("Referrer").fill("acme-web");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await showing(summary, /^1 request matches; page 1\.$/);
    expect(await rows.getAttribute("data-request-id")).toBe(requestId);
    await showing(rows, /success/);
    await screenshot(page, "dashboard-requests-phone.png");

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    const csv = readFileSync((await download.path())!, "utf8").split("\r\n");
    expect(csv[0]).toMatch(/^id,status,createdAt,/);
    expect(csv.slice(1)).toEqual([expect.stringMatching(new RegExp(`^${requestId},success,.*,acme-web,`)), ""]);
    await showing(page.getByRole("status"), /Exported 1 requests/);

    await page.getByRole("button", { name: "Clear filters" }).click();
    await showing(summary, /^23 requests match/);
    const [all] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    const lines = readFileSync((await all.path())!, "utf8")
      .trimEnd()
      .split("\r\n");
    expect(lines).toHaveLength(24);
    expect(lines.join("\n")).toContain(child);
    expect(lines.join("\n")).not.toContain(foreign.id);
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it("charts the integrator's real requests over a chosen time range, with success rate, fill times by route and fail reasons", async () => {
    await bridgedRequest();
    // A failed request of the integrator, as the fill job records it; another integrator's never counts.
    await failRequest((await insertTestRequest(stack.pool, { apiKeyId: admin.id })).id, "SOLVER_BALANCE_TOO_LOW");
    await failRequest((await insertTestRequest(stack.pool, { apiKeyId: stranger.id })).id, "SLIPPAGE");

    const { context, page, problems } = await openPage();
    await signIn(page, admin.key);
    await page.getByRole("link", { name: "Analytics" }).click();
    await page.getByRole("heading", { name: "Analytics" }).waitFor();
    await page.getByLabel("Last 24 hours").check();
    await page.getByRole("button", { name: "Show" }).click();
    await page.getByRole("img", { name: /^Requests per hour/ }).waitFor();
    const bars = page.locator("#chart-count-title + svg rect.bar");
    // "Show" reloads the chart: the previous range's may still be up, or none for a moment. Read until it holds.
    await vi.waitFor(
      async () => {
        expect(await bars.count()).toBeGreaterThanOrEqual(24);
        const values = (
          await bars.evaluateAll((rects) => rects.map((rect) => Number(rect.getAttribute("data-value"))))
        ).filter((value) => value > 0);
        const total = Number((await page.locator('[data-total="count"]').textContent())!.replace(/\D/g, ""));
        expect(values.reduce((sum, value) => sum + value, 0)).toBe(total);
        expect(total).toBeGreaterThanOrEqual(2);
      },
      { timeout: 15_000, interval: 200 },
    );
    // The bridge succeeded and the other failed: half of what finished (requests still waiting do not count).
    await showing(page.locator('[data-total="success-rate"]'), /^50\.0 %\s*\(1 of 2 finished\)$/);
    const route = page.locator("table.routes tbody tr").first();
    expect(await route.locator("td").nth(2).textContent()).toMatch(/^\d+\.\d s$/);
    await showing(page.locator("table.fail-reasons"), /Solver balance too low/);
    expect(await page.locator("table.fail-reasons").textContent()).not.toContain("SLIPPAGE");
    // Each chart's numbers are named after it, not a row of identical "Numbers".
    expect(await page.locator("summary").allTextContents()).toEqual([
      "Numbers of Requests per hour",
      "Numbers of Volume (USD) per hour",
    ]);
    await screenshot(page, "dashboard-analytics.png");

    await page.setViewportSize({ width: 390, height: 900 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  // Last: its success would change the numbers the analytics test checks.
  it("shows a new request of the integrator, then its success, live without a reload; another integrator's never", async () => {
    const { context, page, problems } = await openPage();
    await signIn(page, admin.key);
    await page.getByRole("link", { name: "Requests" }).click();
    const summary = page.getByText(/requests? match/);
    await showing(summary, /match/);
    const total = async () => Number((await summary.textContent())!.match(/^(\d+) requests? match/)![1]);
    const before = await total();
    await page.getByText("Live: new requests and status changes appear as they happen.").waitFor();
    // A reload would lose this.
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

    const [origin, destination] = stack.devnet.chains;
    const user = stack.devnet.accounts[4];
    const trip = { user, recipient: stack.devnet.accounts[3], origin, destination };
    // Another integrator's request first: had the live list leaked it, the read that shows ours would show it too.
    const foreign = await quoteWithKey(stack.api.url, stranger.key, trip);
    // Quoted with another key of the integrator: the list follows all of them.
    const colleague = await createApiKey(stack.pool, stack.serverKey, { name: "acme-ci", integrator: "acme" });
    const quote = await quoteWithKey(stack.api.url, colleague.key, trip);
    const row = page.locator(`table.requests-table tbody tr[data-request-id="${quote.requestId}"]`);
    await showing(row.locator(".status"), /waiting/);
    await sendSteps(quote, user, origin);
    await showing(row.locator(".status"), /success/, 60_000);
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(await page.locator("main").textContent()).not.toContain(foreign.requestId.slice(-6));
    expect(await total()).toBe(before + 1);
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);
});
