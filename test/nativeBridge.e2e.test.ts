import { Connection, PublicKey } from "@solana/web3.js";
import { script as bscript } from "bitcoinjs-lib";
import { type Address, type Hex, createWalletClient, http, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../src/apiKeys/createApiKey.js";
import { createEvmChainClient, toViemChain } from "../src/chains/evm/evmChainClient.js";
import { broadcastPsbt } from "./support/broadcastPsbt.js";
import { devnetEsplora } from "./support/devnetEsplora.js";
import { pollStatus } from "./support/pollStatus.js";
import { postGraphql } from "./support/postGraphql.js";
import { SOLANA_NATIVE_CURRENCY } from "../src/chains/svm/svmFamily.js";
import { paySolanaStep } from "./support/paySolanaStep.js";
import { postBitcoinQuote, postBridgeQuote, postQuote } from "./support/postQuote.js";
import { type TestStack, startTestStack } from "./support/startTestStack.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * An origin family of the native bridge: how its user is quoted, pays the deposit step and what its chain shows. A
 * family with a devnet in the test stack adds one and the bridge's assertions run against it.
 */
type OriginFamily = {
  name: string;
  /** The destination is the first EVM devnet chain that is not the origin. */
  destinationIndex: number;
  originId(stack: TestStack): number;
  /** An amount worth filling, and the quote for it to the recipient. */
  quote(stack: TestStack, recipient: string): Promise<{ status: number; body: any }>;
  /** The user's address and what they can spend on the origin chain. */
  user(stack: TestStack): string;
  depository(stack: TestStack): string;
  balance(stack: TestStack, address: string): Promise<bigint>;
  /** What the user's wallet does with the deposit step: the deposit's hash and the fee it paid. */
  pay(stack: TestStack, data: Record<string, any>): Promise<{ txHash: string; fee: bigint }>;
  /** The family's own steps from the deposit's broadcast to its finality, with their checks. */
  confirm(stack: TestStack, requestId: string, txHash: string): Promise<void>;
};

/** An EVM devnet chain of the stack as the origin: its native currency (ETH, or HYPE on 999) to the destination's. */
const evmOrigin = (name: string, originIndex: number, destinationIndex: number): OriginFamily => ({
  name,
  destinationIndex,
  originId: (stack) => stack.devnet.chains[originIndex].id,
  quote: (stack, recipient) =>
    postBridgeQuote(
      stack.api.url,
      stack.devnet.accounts[0],
      { origin: stack.devnet.chains[originIndex], destination: stack.devnet.chains[destinationIndex] },
      1_000_000_000_000_000_000n,
      { recipient },
    ),
  user: (stack) => stack.devnet.accounts[0].address,
  depository: (stack) => stack.devnet.chains[originIndex].depository,
  balance: (stack, address) =>
    createEvmChainClient(stack.devnet.chains[originIndex]).publicClient.getBalance({ address: address as Address }),
  async pay(stack, item) {
    const origin = stack.devnet.chains[originIndex];
    const account = stack.devnet.accounts[0];
    const wallet = createWalletClient({ account, chain: toViemChain(origin), transport: http(origin.rpcUrl) });
    const txHash = await wallet.sendTransaction({ to: item.to, data: item.data, value: BigInt(item.value) });
    const receipt = await createEvmChainClient(origin).publicClient.waitForTransactionReceipt({
      hash: txHash,
      pollingInterval: 100,
    });
    return { txHash, fee: receipt.gasUsed * receipt.effectiveGasPrice };
  },
  // The devnet chains need no confirmations: a deposit is final once mined.
  confirm: async () => undefined,
});

const bitcoinOrigin: OriginFamily = {
  name: "Bitcoin",
  destinationIndex: 0,
  originId: (stack) => stack.bitcoin!.chain.id,
  // 0.25 BTC is above the 0.1 BTC threshold of the spec's rule: two blocks.
  quote: (stack, recipient) =>
    postBitcoinQuote(stack, stack.bitcoin!.devnet.accounts[0]!.address, 25_000_000n, { recipient }),
  user: (stack) => stack.bitcoin!.devnet.accounts[0]!.address,
  depository: (stack) => stack.bitcoin!.chain.depository,
  balance: (stack, address) => devnetEsplora(() => stack).spendable(address),
  async pay(stack, data) {
    const btc = stack.bitcoin!.devnet;
    const { txid, fee } = await broadcastPsbt(btc, data.psbt, btc.accounts[0]!.wif);
    return { txHash: txid, fee };
  },
  async confirm(stack, requestId, txid) {
    const btc = stack.bitcoin!.devnet;
    const indexTx = () =>
      fetch(`${stack.api.url}/transactions/index`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ chainId: String(stack.bitcoin!.chain.id), txHash: txid }),
      });
    // The deposit's OP_RETURN names the request (the poller maps it to the request's order).
    const memoOutput = (await devnetEsplora(() => stack).esplora(`/tx/${txid}`)).vout.find(
      (output: { scriptpubkey_type: string }) => output.scriptpubkey_type === "op_return",
    );
    const memo = bscript.decompile(Buffer.from(memoOutput.scriptpubkey, "hex"))![1] as Uint8Array;
    expect(Buffer.from(memo).toString("latin1")).toBe(requestId);

    // Seen in the mempool: pending at once, before any block; not indexable by hand until mined.
    const pending = await pollStatus(stack.api.url, requestId, { until: ["pending"], timeoutMs: 15_000 });
    expect(pending.last.inTxHashes).toEqual([txid]);
    expect((await indexTx()).status).toBe(404);

    btc.mine(1);
    const indexed = await indexTx();
    expect(indexed.status).toBe(200);
    expect(await indexed.json()).toMatchObject({ deposits: 1 });
    // One block is not enough for this value: the fill waits (it looks again every block time, 1 s here).
    await sleep(3_000);
    const attempts = await stack.pool.query("SELECT count(*) FROM crossfill.fill_attempts WHERE request_id = $1", [
      requestId,
    ]);
    expect(Number(attempts.rows[0].count)).toBe(0);
    expect((await pollStatus(stack.api.url, requestId, { until: ["pending"] })).last.status).toBe("pending");
    btc.mine(1);
  },
};

const solanaOrigin: OriginFamily = {
  name: "Solana",
  destinationIndex: 0,
  originId: (stack) => stack.solana!.chain.id,
  // 1 SOL at $150.
  quote: (stack, recipient) =>
    postQuote(stack.api.url, {
      user: stack.solana!.devnet.accounts[0]!.publicKey.toBase58(),
      originChainId: stack.solana!.chain.id,
      destinationChainId: stack.devnet.chains[0].id,
      originCurrency: SOLANA_NATIVE_CURRENCY,
      destinationCurrency: "0x0000000000000000000000000000000000000000",
      amount: "1000000000",
      tradeType: "EXACT_INPUT",
      recipient,
    }),
  user: (stack) => stack.solana!.devnet.accounts[0]!.publicKey.toBase58(),
  depository: (stack) => stack.solana!.chain.depository,
  balance: async (stack, address) =>
    BigInt(await new Connection(stack.solana!.devnet.rpcUrl, "confirmed").getBalance(new PublicKey(address))),
  async pay(stack, data) {
    const connection = new Connection(stack.solana!.devnet.rpcUrl, "confirmed");
    const { signature } = await paySolanaStep(connection, stack.solana!.devnet.accounts[0]!, data as never);
    // Served once confirmed (a slot after it lands).
    for (;;) {
      const landed = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
      if (landed) return { txHash: signature, fee: BigInt(landed.meta!.fee) };
      await sleep(20);
    }
  },
  async confirm(stack, requestId, signature) {
    const indexTx = (txHash: string) =>
      fetch(`${stack.api.url}/transactions/index`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ chainId: String(stack.solana!.chain.id), txHash }),
      });
    // Pending once the deposit is confirmed; the official adapter indexes it by hand too.
    const pending = await pollStatus(stack.api.url, requestId, { until: ["pending", "submitted", "success"] });
    expect(pending.last.inTxHashes).toEqual([signature]);
    const indexed = await indexTx(signature);
    expect(indexed.status).toBe(200);
    expect(await indexed.json()).toMatchObject({ deposits: 1 });
    expect((await indexTx("1".repeat(64))).status).toBe(404);
    expect((await indexTx(signature.toLowerCase().replace(/[1-9]/g, "0"))).status).toBe(400);
  },
};

describe("native bridge, end to end", () => {
  let stack: TestStack;
  beforeAll(async () => {
    // 999, the perps exchange's EVM chain (native HYPE), beside two ether chains.
    stack = await startTestStack({ bitcoin: true, solana: true, chainIds: [31338, 31339, 999] });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("lists chain 999 with HYPE as its native currency, priced", async () => {
    const chains = (await fetch(`${stack.api.url}/chains`).then((r) => r.json())).chains as any[];
    const hyperEvm = chains.find((chain) => chain.id === 999);
    expect(hyperEvm).toMatchObject({ vmType: "evm", currency: { symbol: "HYPE", decimals: 18, address: zeroAddress } });
    // Its wrapped native is WETH9 ("Wrapped Ether"): not listed there, so nothing prices it as ether.
    expect(hyperEvm.erc20Currencies.map((c: { symbol: string }) => c.symbol)).toEqual(["USDC"]);
  });

  describe.each([evmOrigin("EVM", 0, 1), evmOrigin("EVM chain 999 (HYPE)", 2, 0), bitcoinOrigin, solanaOrigin])(
    "from $name",
    (family) => {
      it("quotes, takes the deposit and delivers the funds on the destination chain", async () => {
        const destination = stack.devnet.chains[family.destinationIndex];
        const recipient = stack.devnet.accounts[1].address;
        const destinationClient = createEvmChainClient(destination).publicClient;

        const response = await family.quote(stack, recipient);
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        const quote = response.body;
        expect(quote.steps.map((step: { id: string }) => step.id)).toEqual(["deposit"]);
        expect(quote.steps[0]).toMatchObject({ kind: "transaction", depositAddress: "" });
        const { requestId } = quote.steps[0];
        const before = await pollStatus(stack.api.url, requestId, { until: ["waiting"] });
        expect(before.last.status).toBe("waiting");

        const amountIn = BigInt(quote.details.currencyIn.amount);
        const userBefore = await family.balance(stack, family.user(stack));
        const depositoryBefore = await family.balance(stack, family.depository(stack));
        const recipientBefore = await destinationClient.getBalance({ address: recipient });
        const solverBefore = await destinationClient.getBalance({ address: stack.devnet.solver.address });
        const key = await createApiKey(stack.pool, stack.serverKey, { name: `fees ${family.name}` });
        const record = async () =>
          (
            await fetch(`${stack.api.url}/requests/v3?id=${requestId}`, { headers: { "x-api-key": key.key } }).then(
              (r) => r.json(),
            )
          ).requests[0].data;
        const polling = pollStatus(stack.api.url, requestId, { timeoutMs: 60_000 });
        const deposit = await family.pay(stack, quote.steps[0].items[0].data);
        await family.confirm(stack, requestId, deposit.txHash);

        // The recorded sequence, not the polled one: submitted can last less than a poll's interval.
        const { last } = await polling;
        // Read at once, without waiting for the indexer: the fill the request succeeded on is there (from the solver's
        // receipt, recorded in the transaction that made it a success), in GraphQL `fills` and the v3 `outTxs`.
        const [graphql, recordAtSuccess] = await Promise.all([
          postGraphql(stack.api.url, `query ($id: String!) { request(id: $id) { fills { txHash } } }`, {
            id: requestId,
          }),
          record(),
        ]);
        expect(graphql.data.request.fills).toEqual([{ txHash: (last.txHashes as string[])[0] }]);
        expect(recordAtSuccess.outTxs.map((tx: { txHash: string }) => tx.txHash)).toEqual(last.txHashes);
        const together = await stack.pool.query(
          `SELECT f.created_at = e.created_at AS same FROM crossfill.request_fills f
           JOIN crossfill.status_events e ON e.request_id = f.request_id AND e.to_status = 'success' WHERE f.request_id = $1`,
          [requestId],
        );
        expect(together.rows).toEqual([{ same: true }]);
        const events = await stack.pool.query(
          "SELECT to_status FROM crossfill.status_events WHERE request_id = $1 ORDER BY id",
          [requestId],
        );
        expect(events.rows.map((row) => row.to_status)).toEqual(["waiting", "pending", "submitted", "success"]);
        expect(last.status).toBe("success");
        expect(last.inTxHashes).toEqual([deposit.txHash]);
        expect(last.txHashes).toHaveLength(1);

        // To the unit on both chains: the user paid the deposit and its fee, the depository holds it, the recipient
        // got the quoted amount from the solver, who paid its gas.
        expect(await family.balance(stack, family.user(stack))).toBe(userBefore - amountIn - deposit.fee);
        expect(await family.balance(stack, family.depository(stack))).toBe(depositoryBefore + amountIn);
        const expectedOut = BigInt(quote.details.currencyOut.amount);
        expect(await destinationClient.getBalance({ address: recipient })).toBe(recipientBefore + expectedOut);
        const fillReceipt = await destinationClient.getTransactionReceipt({ hash: (last.txHashes as Hex[])[0] });
        const gasPaid = fillReceipt.gasUsed * fillReceipt.effectiveGasPrice;
        expect(await destinationClient.getBalance({ address: stack.devnet.solver.address })).toBe(
          solverBefore - expectedOut - gasPaid,
        );

        // The record carries what each transaction paid, as its chain says (the receipt's fill and the indexer's agree).
        const { inTxs, outTxs } = await record();
        expect(inTxs).toMatchObject([
          { txHash: deposit.txHash, fee: deposit.fee.toString(), status: "success", chainId: family.originId(stack) },
        ]);
        expect(outTxs).toMatchObject([
          { txHash: fillReceipt.transactionHash, fee: gasPaid.toString(), block: Number(fillReceipt.blockNumber) },
        ]);
      }, 90_000);
    },
  );
});
