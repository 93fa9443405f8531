import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { markRefundSent, queueRefund } from "../schema/refunds.js";
import { transitionRequest } from "../schema/transitionRequest.js";
import { insertTestRequest } from "./support/insertTestRequest.js";
import { CHROMIUM, haveChromium, launchChromium } from "./support/launchChromium.js";
import { pollStatus } from "./support/pollStatus.js";
import { postBitcoinQuote, postBridgeQuote } from "./support/postQuote.js";
import { sendSteps } from "./support/sendSteps.js";
import { type TestStack, startTestStack } from "./support/startTestStack.js";

const EXPLORER = "https://explorer.test";
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

  async function openPage(width = 1024): Promise<Page> {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
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

  it("watches a request page go from waiting to success live, without a reload", async () => {
    const { quote, requestId, origin } = await quoteBridge();
    const page = await openPage(390);
    await page.goto(`${stack.api.url}/explorer/request/${requestId}`);
    const status = page.locator(".current-status [data-status]");
    await showing(status, /waiting/);
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
    expect(
      await page.getByRole("link", { name: new RegExp(`Deposit transaction ${deposit}`) }).getAttribute("href"),
    ).toBe(`${EXPLORER}/${origin.id}/tx/${deposit}`);
    // Phone width: nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
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

    const page = await openPage();
    await page.goto(`${stack.api.url}/explorer/request/${childId}`);
    await showing(page.locator(".current-status [data-status]"), /failure|refund/);
    expect(await page.locator(".reason").innerText()).toMatch(/\(DOUBLE_SPEND\)$/);
    expect(problemsOf(page)).toEqual([]);
    await page.close();
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
    await showing(page.locator("ul.requests li").filter({ hasText: requestId }), /success/);
    await screenshot(page, "explorer.png");

    // Keyboard only: the search box is the first field, Enter searches.
    const search = page.getByRole("searchbox");
    expect(await search.getAttribute("placeholder")).toMatch(/transaction hash/);
    await search.focus();
    await page.keyboard.type(deposit);
    await page.keyboard.press("Enter");
    await page.waitForURL(new RegExp(`#/request/${requestId}$`));
    await showing(page.locator(".current-status [data-status]"), /success/);
    // The keyboard lands on the request shown.
    await page.waitForFunction(() => document.activeElement?.tagName === "H1");
    expect(await page.getByRole("link", { name: new RegExp(`Fill transaction ${fill}`) }).getAttribute("href")).toBe(
      `${EXPLORER}/${destination.id}/tx/${fill}`,
    );
    await screenshot(page, "explorer-request.png");

    // A wallet matches every request it made: a list to choose from, this one among them (a second quote of the
    // same wallet makes sure there is more than one).
    await quoteBridge();
    const wallet = stack.devnet.accounts[0].address;
    await page.getByRole("link", { name: "Crossfill explorer" }).click();
    await page.getByRole("searchbox").fill(wallet);
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByRole("heading", { name: `Requests matching “${wallet}”` }).waitFor();
    await showing(page.locator("ul.requests li"), new RegExp(requestId));
    expect(await page.locator("ul.requests li").count()).toBeGreaterThan(1);
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

    const page = await openPage(390);
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

    const page = await openPage(390);
    await page.goto(`${stack.api.url}/explorer/#/request/${request.id}`);
    await showing(page.locator(".current-status [data-status]"), /refund/);
    expect(await page.locator(".reason").innerText()).toBe("Failed: Solver balance too low (SOLVER_BALANCE_TOO_LOW)");
    expect(await page.locator(".timeline li").allInnerTexts()).toEqual([
      expect.stringMatching(/waiting$/),
      expect.stringMatching(/pending$/),
      expect.stringMatching(/failure — Solver balance too low$/),
      expect.stringMatching(/refund$/),
    ]);
    expect(await page.locator(".refunds > li").first().innerText()).toMatch(
      /^Refund sent: 0\.0009 ETH because solver balance too low/,
    );
    expect(
      await page.getByRole("link", { name: new RegExp(`Refund transaction ${refundTx}`) }).getAttribute("href"),
    ).toBe(`${EXPLORER}/${request.originChainId}/tx/${refundTx}`);
    expect(problemsOf(page)).toEqual([]);
    await page.close();
  }, 60_000);
});
