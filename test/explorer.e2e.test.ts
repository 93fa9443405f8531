import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { markRefundSent, queueRefund } from "../schema/refunds.js";
import { transitionRequest } from "../schema/transitionRequest.js";
import { insertTestRequest, testRequest } from "./support/insertTestRequest.js";
import { CHROMIUM, haveChromium, launchChromium } from "./support/launchChromium.js";
import { pollStatus } from "./support/pollStatus.js";
import { postBitcoinQuote, postBridgeQuote } from "./support/postQuote.js";
import { sendSteps } from "./support/sendSteps.js";
import { type TestStack, startTestStack } from "./support/startTestStack.js";

const EXPLORER = "https://explorer.test";
const PHONE = 390;
const DESKTOP = 1280;
const IMAGES = new URL("../docs/images/", import.meta.url);
// The README's pictures are taken again only when asked, so a test run leaves the tree as it was.
const screenshot = (page: Page, name: string) =>
  process.env.UPDATE_SCREENSHOTS
    ? page.screenshot({ path: new URL(name, IMAGES).pathname, fullPage: true })
    : undefined;

if (!haveChromium) console.warn(`explorer e2e skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);

describe.skipIf(!haveChromium)("the public explorer in headless Chromium", () => {
  let stack: TestStack;
  let browser: Browser;
  beforeAll(async () => {
    [stack, browser] = await Promise.all([startTestStack({ explorerUrl: EXPLORER, bitcoin: true }), launchChromium()]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  /** A quoted native bridge, not yet deposited. */
  async function quoteBridge() {
    const [origin, destination] = stack.devnet.chains;
    const response = await postBridgeQuote(
      stack.api.url,
      stack.devnet.accounts[0],
      { origin, destination },
      10n ** 17n,
      {
        recipient: stack.devnet.accounts[1].address,
      },
    );
    expect(response.status).toBe(200);
    return { quote: response.body, requestId: response.body.steps[0].requestId as string, origin, destination };
  }

  async function openPage(width = DESKTOP): Promise<Page> {
    // The copy buttons write the clipboard: the test reads it back.
    const page = await browser.newPage({
      viewport: { width, height: 900 },
      permissions: ["clipboard-read", "clipboard-write"],
    });
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    // A read over the keyless rate limit is retried by the page after its Retry-After (graphqlRequest): the
    // browser's own console line for that 429 is not a problem of the page.
    page.on(
      "console",
      (message) =>
        message.type() === "error" &&
        !/status of 429 \(Too Many Requests\)/.test(message.text()) &&
        problems.push(message.text()),
    );
    // Anything the page fetches from another origin would break offline and the CSP: none may be asked for.
    page.on("request", (request) => {
      if (new URL(request.url()).host !== new URL(stack.api.url).host) problems.push(`fetched ${request.url()}`);
    });
    (page as Page & { problems: string[] }).problems = problems;
    return page;
  }
  const problemsOf = (page: Page) => (page as Page & { problems: string[] }).problems;
  /** Waits until the element shows the text (the page renders asynchronously; a loaded CI machine can take seconds). */
  const showing = (locator: Locator, text: RegExp, timeout = 30_000) =>
    locator.filter({ hasText: text }).first().waitFor({ timeout });
  /** Nothing wider than the screen (a phone scrolls down, never sideways). */
  const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= innerWidth);
  /** Clicks a copy button and answers what landed on the clipboard. */
  const copied = async (within: Page | Locator, name: RegExp) => {
    await within.getByRole("button", { name }).first().click();
    const page = "page" in within ? within.page() : within;
    return page.evaluate(() => navigator.clipboard.readText());
  };
  const row = (page: Page, requestId: string) => page.locator(`table.requests tr[data-request="${requestId}"]`);

  it("watches a request page go from waiting to success live, without a reload", async () => {
    const { quote, requestId, origin } = await quoteBridge();
    const page = await openPage(PHONE);
    await page.goto(`${stack.api.url}/explorer/request/${requestId}`);
    const status = page.locator(".current-status [data-status]");
    await showing(status, /waiting/);
    // A waiting request says what to pay, where and until when; its type and deadline are shown.
    const pay = page.locator("section.pay");
    expect(await pay.innerText()).toMatch(new RegExp(`Amount\\s+0\\.1 ETH[\\s\\S]*On\\s+${origin.displayName}`));
    expect(await pay.innerText()).toContain(quote.steps[0].items[0].data.to);
    expect(await pay.innerText()).toMatch(/Order id[\s\S]*0x[0-9a-f]{64}[\s\S]*Before\s+\S/);
    expect(await page.locator(".request-type").innerText()).toBe("Bridge");
    expect(Date.parse((await page.locator(".deadline time").getAttribute("datetime")) as string)).toBeGreaterThan(
      Date.now(),
    );
    expect(await copied(page, /^Copy request id/)).toBe(requestId);
    expect(await copied(page, /^Copy recipient/)).toBe(stack.devnet.accounts[1].address);
    expect(await fitsWidth(page)).toBe(true);
    await page.evaluate(() => ((window as unknown as { marker: boolean }).marker = true));

    const { deposit } = await sendSteps(quote, stack.devnet.accounts[0], origin);
    await showing(status, /success/, 30_000);
    // The same document all along: the subscription moved it, not a reload.
    expect(await page.evaluate(() => (window as unknown as { marker?: boolean }).marker)).toBe(true);
    expect(await page.locator(".timeline [data-status]").allTextContents()).toEqual([
      expect.stringContaining("waiting"),
      expect.stringContaining("pending"),
      expect.stringContaining("submitted"),
      expect.stringContaining("success"),
    ]);
    // How long each step took, in words.
    expect(await page.locator(".timeline li").last().innerText()).toMatch(/success · filled in \d+(\.\d)? s$/);
    // Paid: nothing left to pay.
    expect(await page.locator("section.pay").count()).toBe(0);
    expect(
      await page.getByRole("link", { name: new RegExp(`Deposit transaction ${deposit}`) }).getAttribute("href"),
    ).toBe(`${EXPLORER}/${origin.id}/tx/${deposit}`);
    expect(await copied(page, new RegExp(`^Copy Deposit hash ${deposit}`))).toBe(deposit);
    // Phone width: nothing wider than the screen.
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, "explorer-request-phone.png");
    expect(problemsOf(page)).toEqual([]);
    await page.close();
  }, 90_000);

  it("opens the page of a child request (a second payment of one quote, refunded as DOUBLE_SPEND)", async () => {
    const { quote, requestId, origin } = await quoteBridge();
    await sendSteps(quote, stack.devnet.accounts[0], origin);
    expect((await pollStatus(stack.api.url, requestId)).last.status).toBe("success");
    await sendSteps(quote, stack.devnet.accounts[0], origin);
    let childId: string | undefined;
    for (let tries = 0; !childId && tries < 300; tries++) {
      const { rows } = await stack.pool.query<{ id: string }>(
        "SELECT id FROM crossfill.requests WHERE parent_request_id = $1",
        [requestId],
      );
      childId = rows[0]?.id;
      if (!childId) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(childId).toBeDefined();

    for (const width of [DESKTOP, PHONE]) {
      const page = await openPage(width);
      // The front page lists the child, linked to its parent.
      await page.goto(`${stack.api.url}/`);
      const child = row(page, childId!);
      await child.waitFor();
      if (width === PHONE) await screenshot(page, "explorer-phone.png");
      await child.getByRole("link", { name: requestId.slice(0, 8) }).click();
      await page.waitForURL(new RegExp(`#/request/${requestId}$`));
      await showing(page.locator(".current-status [data-status]"), /success/);

      await page.goto(`${stack.api.url}/explorer/request/${childId}`);
      await showing(page.locator(".current-status [data-status]"), /failure|refund/);
      expect(await page.locator(".reason").innerText()).toMatch(/\(DOUBLE_SPEND\)$/);
      expect(await page.locator("p.parent").innerText()).toContain(requestId);
      expect(await fitsWidth(page)).toBe(true);
      await page.locator("p.parent").getByRole("link").click();
      await page.waitForURL(new RegExp(`#/request/${requestId}$`));
      await showing(page.locator(".current-status [data-status]"), /success/);
      expect(problemsOf(page)).toEqual([]);
      await page.close();
    }
  }, 90_000);

  it("finds a bridged request by its deposit hash from the search box and shows success with the fill's link", async () => {
    const page = await openPage();
    await page.goto(`${stack.api.url}/`);
    await page.getByRole("heading", { name: "Recent requests" }).waitFor();

    // The first screen's list follows the chains' updates: the new request shows up and succeeds, no reload.
    const { quote, requestId, origin, destination } = await quoteBridge();
    const { deposit } = await sendSteps(quote, stack.devnet.accounts[0], origin);
    const { last } = await pollStatus(stack.api.url, requestId);
    expect(last.status).toBe("success");
    const fill = (last.txHashes as string[])[0];
    await showing(row(page, requestId), /success/);
    // A row says what an explorer user looks for: route, amounts with USD, sender and recipient, age.
    const cells = await row(page, requestId).locator("td").allInnerTexts();
    expect(cells[2]).toBe(`${origin.displayName} → ${destination.displayName}`);
    expect(cells[3]).toMatch(/^0\.1 ETH\s+\$[\d,]+\.\d\d$/);
    expect(cells[4]).toMatch(/ ETH\s+\$[\d,]+\.\d\d$/);
    expect(cells[5]).toMatch(/^0x\w{4}…\w{4}/);
    expect(cells[7]).toMatch(/^(just now|\d+ s ago)$/);
    await screenshot(page, "explorer.png");
    expect(await copied(row(page, requestId), /^Copy sender/)).toBe(stack.devnet.accounts[0].address);

    // Keyboard only: the search box is the first field, Enter searches.
    const search = page.getByRole("searchbox");
    expect(await search.getAttribute("placeholder")).toMatch(/transaction hash/);
    await search.focus();
    await page.keyboard.type(deposit);
    await page.keyboard.press("Enter");
    await page.waitForURL(new RegExp(`#/request/${requestId}$`));
    await showing(page.locator(".current-status [data-status]"), /success/);
    // The keyboard lands on the request shown, without a box around the heading that reads as a selection.
    await page.waitForFunction(() => document.activeElement?.tagName === "H1");
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).toBe("none");
    expect(await page.getByRole("link", { name: new RegExp(`Fill transaction ${fill}`) }).getAttribute("href")).toBe(
      `${EXPLORER}/${destination.id}/tx/${fill}`,
    );
    await screenshot(page, "explorer-request.png");

    // A wallet matches every request it made: a list to choose from, this one among them (a second quote of the
    // same wallet makes sure there is more than one). The request page has the search box too.
    await quoteBridge();
    const wallet = stack.devnet.accounts[0].address;
    await page.getByRole("searchbox").fill(wallet);
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByRole("heading", { name: `Requests matching “${wallet}”` }).waitFor();
    await row(page, requestId).waitFor();
    expect(await page.locator("table.requests tbody tr").count()).toBeGreaterThan(1);
    expect(problemsOf(page)).toEqual([]);
    await page.close();
  }, 90_000);

  it("finds a Bitcoin deposit-address request by its address from the search box and shows the address", async () => {
    const user = stack.bitcoin!.devnet.accounts[0]!;
    const response = await postBitcoinQuote(stack, user.address, 1_000_000n, {
      recipient: stack.devnet.accounts[2].address,
      useDepositAddress: true,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const { requestId, depositAddress } = response.body.steps[0] as { requestId: string; depositAddress: string };
    expect(depositAddress).toMatch(/^bcrt1q/);

    const page = await openPage(PHONE);
    await page.goto(`${stack.api.url}/`);
    const search = page.getByRole("searchbox");
    expect(await search.getAttribute("placeholder")).toMatch(/deposit address/);
    await search.fill(depositAddress);
    await page.getByRole("button", { name: "Search" }).click();
    // One request owns the address: the search opens it, as a deposit hash does.
    await page.waitForURL(new RegExp(`#/request/${requestId}$`));
    await showing(page.locator(".current-status [data-status]"), /waiting/);
    const route = page.locator("dl.route");
    await showing(route, /Deposit address/);
    expect(await route.textContent()).toContain(depositAddress);
    expect(problemsOf(page)).toEqual([]);
    await page.close();
  }, 60_000);

  it("shows a failed request's reason in words, its timeline and its refund with the refund's link", async () => {
    const request = await insertTestRequest(stack.pool);
    const hash = () => `0x${randomBytes(32).toString("hex")}`;
    const refundTx = hash();
    const client = await stack.pool.connect();
    try {
      // As the fill and refund jobs record it: the fill refused, the deposit sent back.
      await client.query("BEGIN");
      await transitionRequest(client, { requestId: request.id, to: "pending" });
      await transitionRequest(client, { requestId: request.id, to: "failure", failReason: "SOLVER_BALANCE_TOO_LOW" });
      const refundId = await queueRefund(client, {
        requestId: request.id,
        deposit: {
          chainId: request.originChainId,
          txHash: hash(),
          position: 0,
          currency: request.originCurrency,
          amount: 10n ** 15n,
        },
        reason: "SOLVER_BALANCE_TOO_LOW",
        refundsRequest: true,
        recipient: request.refundTo!,
      });
      await markRefundSent(client, refundId!, {
        amount: 9n * 10n ** 14n,
        gasCost: 10n ** 14n,
        nonce: 0,
        txHash: refundTx,
        rawTx: "0x",
      });
      await transitionRequest(client, { requestId: request.id, to: "refund" });
      await client.query("COMMIT");
    } finally {
      client.release();
    }

    const page = await openPage(PHONE);
    await page.goto(`${stack.api.url}/explorer/#/request/${request.id}`);
    await showing(page.locator(".current-status [data-status]"), /refund/);
    expect(await page.locator(".reason").innerText()).toBe("Failed: Solver balance too low (SOLVER_BALANCE_TOO_LOW)");
    expect(await page.locator(".timeline li").allInnerTexts()).toEqual([
      expect.stringMatching(/waiting$/),
      expect.stringMatching(/pending · deposit confirmed after \d/),
      expect.stringMatching(/failure — Solver balance too low · failed after \d/),
      expect.stringMatching(/refund · refunded in \d/),
    ]);
    // What came back, and no fee table of a fill that never happened. (Refund rows keep the address lower-cased.)
    const refundTo = request.refundTo!.toLowerCase();
    expect(await page.locator(".came-back").innerText()).toBe(`Came back: 0.0009 ETH to ${refundTo}`);
    expect(await page.getByRole("heading", { name: "Fees" }).count()).toBe(0);
    expect(await page.locator(".refunds > li").first().innerText()).toMatch(
      new RegExp(`^Refund sent: 0\\.0009 ETH to ${refundTo} because solver balance too low`),
    );
    expect(
      await page.getByRole("link", { name: new RegExp(`Refund transaction ${refundTx}`) }).getAttribute("href"),
    ).toBe(`${EXPLORER}/${request.originChainId}/tx/${refundTx}`);
    expect(problemsOf(page)).toEqual([]);
    await page.close();
  }, 60_000);

  it.each([
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ])(
    "pages the front page's table and narrows it by status and chain (%s)",
    async (name, width) => {
      // More than a page of requests, newest last.
      const inserted: string[] = [];
      for (let index = 0; index < 17; index++) inserted.push((await insertTestRequest(stack.pool)).id);
      const newest = [...inserted].reverse();
      const page = await openPage(width);
      await page.goto(`${stack.api.url}/`);
      await row(page, newest[0]).waitFor();
      const ids = () =>
        page
          .locator("table.requests tbody tr")
          .evaluateAll((rows) => rows.map((tr) => tr.getAttribute("data-request")));
      expect(await ids()).toEqual(newest.slice(0, 15));
      expect(await fitsWidth(page)).toBe(true);

      const newer = page.getByRole("button", { name: "← Newer" });
      const older = page.getByRole("button", { name: "Older →" });
      expect(await newer.isDisabled()).toBe(true);
      await older.click();
      await row(page, newest[15]).waitFor();
      expect((await ids()).slice(0, 2)).toEqual(newest.slice(15, 17));
      await newer.click();
      await row(page, newest[0]).waitFor();
      expect(await ids()).toEqual(newest.slice(0, 15));

      // Narrowed to refunded requests (the failed request of the test above is one): each row says refund.
      await page.getByLabel("Status").selectOption("refund");
      await row(page, newest[0]).waitFor({ state: "detached" });
      // The narrowed page replaces the table once it arrives: wait for its first row.
      await page.locator("table.requests tbody tr [data-status]").first().waitFor();
      const statuses = await page.locator("table.requests tbody tr [data-status]").allTextContents();
      expect(statuses.length).toBeGreaterThan(0);
      expect(statuses.every((status) => /refund$/.test(status))).toBe(true);

      // Narrowed to one chain: every row's route names it.
      await page.getByLabel("Status").selectOption("");
      // (the inserted requests' destination)
      const chain = stack.devnet.chains.find((candidate) => candidate.id === testRequest().destinationChainId)!;
      await page.getByLabel("Chain").selectOption(String(chain.id));
      await row(page, newest[0]).waitFor();
      const routes = await page.locator('table.requests tbody td[data-label="Route"]').allInnerTexts();
      expect(routes.length).toBe(15);
      expect(routes.every((route) => route.includes(chain.displayName))).toBe(true);
      expect(problemsOf(page)).toEqual([]);
      await page.close();
    },
    90_000,
  );
});
