import { Keypair } from "@solana/web3.js";
import type { Browser, Page } from "playwright-core";
import { parseEther, zeroAddress } from "viem";
import { generatePrivateKey, privateKeyToAddress } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChainConfig } from "../src/chains/chainConfig.js";
import { SOLANA_NATIVE_CURRENCY } from "../src/chains/svm/svmFamily.js";
import { CHROMIUM, haveChromium, launchChromium } from "./support/launchChromium.js";
import { paySolanaStep } from "./support/paySolanaStep.js";
import { pollStatus } from "./support/pollStatus.js";
import { postQuote } from "./support/postQuote.js";
import { sendSteps } from "./support/sendSteps.js";
import { useSolanaStack } from "./support/useSolanaStack.js";

// Solana's explorer names the cluster in its query: links must keep it after the transaction's path.
const SOLANA_EXPLORER = "https://explorer.solana.com/?cluster=custom&customUrl=http%3A%2F%2F127.0.0.1%3A8899";
const EVM_EXPLORER = "https://explorer.test";
const explorerOf = (chain: ChainConfig) => (chain.vmType === "svm" ? SOLANA_EXPLORER : `${EVM_EXPLORER}/${chain.id}`);
const solanaTxUrl = (signature: string) =>
  `https://explorer.solana.com/tx/${signature}?cluster=custom&customUrl=http%3A%2F%2F127.0.0.1%3A8899`;

if (!haveChromium) console.warn(`Solana explorer links skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);

/**
 * The public explorer's links of Solana requests (issue 24), in headless Chromium against the devnet Solana: the
 * deposit or fill signature links to the Solana chain's explorer, the EVM side to its own, and the Solana wallet and
 * signature find the request in the explorer's search.
 */
describe.skipIf(!haveChromium)("Solana links in the public explorer", () => {
  const { stack, connection } = useSolanaStack({ explorerUrl: explorerOf });
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function openPage(): Promise<Page & { problems: string[] }> {
    const page = Object.assign(await browser.newPage({ viewport: { width: 1280, height: 900 } }), {
      problems: [] as string[],
    });
    page.on("pageerror", (error) => page.problems.push(error.message));
    page.on("request", (request) => {
      if (new URL(request.url()).host !== new URL(stack().api.url).host) page.problems.push(`fetched ${request.url()}`);
    });
    return page;
  }
  /** The request's page once it succeeded, and its fill's hash. */
  async function openSucceeded(requestId: string) {
    const { last } = await pollStatus(stack().api.url, requestId, { timeoutMs: 60_000 });
    expect(last.status).toBe("success");
    const page = await openPage();
    await page.goto(`${stack().api.url}/explorer/#/request/${requestId}`);
    await page
      .locator(".current-status [data-status]")
      .filter({ hasText: /success/ })
      .waitFor({ timeout: 30_000 });
    return { page, fill: (last.txHashes as string[])[0]! };
  }
  const href = (page: Page, name: RegExp) => page.getByRole("link", { name }).first().getAttribute("href");

  it("links a SOL → ETH request's deposit signature to Solana's explorer and its fill to the EVM one", async () => {
    const solana = stack().solana!;
    const user = solana.devnet.accounts[0]!;
    const destination = stack().devnet.chains[0];
    const quote = await postQuote(stack().api.url, {
      user: user.publicKey.toBase58(),
      originChainId: solana.chain.id,
      destinationChainId: destination.id,
      originCurrency: SOLANA_NATIVE_CURRENCY,
      destinationCurrency: zeroAddress,
      amount: (10n ** 8n).toString(),
      tradeType: "EXACT_INPUT",
      recipient: privateKeyToAddress(generatePrivateKey()),
    });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    const { requestId } = quote.body.steps[0];
    const { signature } = await paySolanaStep(connection(), user, quote.body.steps[0].items[0].data);
    const { page, fill } = await openSucceeded(requestId);
    expect(await href(page, new RegExp(`Deposit transaction ${signature}`))).toBe(solanaTxUrl(signature));
    expect(await href(page, new RegExp(`Fill transaction ${fill}`))).toBe(
      `${EVM_EXPLORER}/${destination.id}/tx/${fill}`,
    );

    // The front page's sender link searches for the Solana wallet as written; that search and the signature's each
    // find this one request, whose page they open.
    await page.goto(`${stack().api.url}/explorer/#/`);
    const sender = page.locator(`table.requests tr[data-request="${requestId}"] td[data-label="Sender"] a`);
    await sender.waitFor({ timeout: 30_000 });
    expect(await sender.getAttribute("href")).toBe(`#/search/${user.publicKey.toBase58()}`);
    await sender.click();
    await page.waitForURL(`**/explorer/#/request/${requestId}`, { timeout: 30_000 });
    await page.goto(`${stack().api.url}/explorer/#/search/${signature}`);
    await page.waitForURL(`**/explorer/#/request/${requestId}`, { timeout: 30_000 });
    expect(page.problems).toEqual([]);
    await page.close();
  }, 120_000);

  it("links an ETH → SOL request's fill signature to Solana's explorer", async () => {
    const origin = stack().devnet.chains[0];
    const recipient = Keypair.generate().publicKey.toBase58();
    const quote = await postQuote(stack().api.url, {
      user: stack().devnet.accounts[0].address,
      originChainId: origin.id,
      destinationChainId: stack().solana!.chain.id,
      originCurrency: zeroAddress,
      destinationCurrency: SOLANA_NATIVE_CURRENCY,
      amount: parseEther("0.05").toString(),
      tradeType: "EXACT_INPUT",
      recipient,
    });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    const { requestId } = quote.body.steps[0];
    const { deposit } = await sendSteps(quote.body, stack().devnet.accounts[0], origin);
    const { page, fill } = await openSucceeded(requestId);
    expect(await href(page, new RegExp(`Deposit transaction ${deposit}`))).toBe(
      `${EVM_EXPLORER}/${origin.id}/tx/${deposit}`,
    );
    expect(await href(page, new RegExp(`Fill transaction ${fill}`))).toBe(solanaTxUrl(fill));
    expect(page.problems).toEqual([]);
    await page.close();
  }, 120_000);
});
