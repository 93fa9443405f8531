/**
 * The README walk-through as a script: bridges 0.1 ETH from the first devnet chain to the second with one
 * of the printed test accounts and prints each status until the fill lands.
 *   npm start            (in another terminal)
 *   npx tsx examples/bridge.ts
 */
import { readFileSync } from "node:fs";
import { type Hex, createPublicClient, createWalletClient, defineChain, http, zeroAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";

type Manifest = {
  apiUrl: string;
  apiKey: string;
  chains: Array<{ id: number; name: string; rpcUrl: string }>;
  accounts: Array<{ address: Hex; privateKey: Hex }>;
};

const manifest: Manifest = JSON.parse(readFileSync(process.argv[2] ?? ".devnet/manifest.json", "utf8"));
const [origin, destination] = manifest.chains;
const account = privateKeyToAccount(manifest.accounts[0].privateKey);
const recipient = manifest.accounts[1].address;
const chain = (c: Manifest["chains"][number]) =>
  defineChain({
    id: c.id,
    name: c.name,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [c.rpcUrl] } },
  });
const destinationClient = createPublicClient({ chain: chain(destination), transport: http() });

const response = await fetch(`${manifest.apiUrl}/quote/v2`, {
  method: "POST",
  // The devnet's key: the dashboard lists the requests it quotes.
  headers: { "content-type": "application/json", "x-api-key": manifest.apiKey },
  body: JSON.stringify({
    user: account.address,
    recipient,
    originChainId: origin.id,
    destinationChainId: destination.id,
    originCurrency: zeroAddress,
    destinationCurrency: zeroAddress,
    amount: "100000000000000000",
    tradeType: "EXACT_INPUT",
  }),
});
const quote = await response.json();
if (!response.ok) throw new Error(`quote refused: ${JSON.stringify(quote)}`);
console.log(
  `quoted ${quote.details.currencyIn.amountFormatted} ETH → ${quote.details.currencyOut.amountFormatted} ETH, request ${quote.requestId}`,
);

const before = await destinationClient.getBalance({ address: recipient });
const wallet = createWalletClient({ account, chain: chain(origin), transport: http() });
for (const step of quote.steps) {
  for (const item of step.items) {
    const hash = await wallet.sendTransaction({
      to: item.data.to,
      data: item.data.data,
      value: BigInt(item.data.value),
    });
    console.log(`${step.id}: sent ${hash}`);
  }
}

let last = "";
for (;;) {
  const status = await (await fetch(`${manifest.apiUrl}/intents/status/v3?requestId=${quote.requestId}`)).json();
  if (status.status !== last)
    console.log(`status: ${(last = status.status)}${status.txHashes.length ? ` (fill ${status.txHashes[0]})` : ""}`);
  if (["success", "failure", "refund"].includes(status.status)) break;
  await new Promise((resolve) => setTimeout(resolve, 250));
}
const after = await destinationClient.getBalance({ address: recipient });
console.log(`recipient ${recipient} received ${after - before} wei on ${destination.name}`);
