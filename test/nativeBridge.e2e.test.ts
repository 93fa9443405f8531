import { type Hex, createWalletClient, http } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../src/apiKeys/createApiKey.js";
import { createEvmChainClient, toViemChain } from "../src/chains/evm/evmChainClient.js";
import { pollStatus } from "./support/pollStatus.js";
import { postGraphql } from "./support/postGraphql.js";
import { postBridgeQuote } from "./support/postQuote.js";
import { type TestStack, startTestStack } from "./support/startTestStack.js";

describe("native bridge, end to end", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("quotes, takes the deposit and delivers the funds on the destination chain", async () => {
    const [origin, destination] = stack.devnet.chains;
    const user = stack.devnet.accounts[0];
    const recipient = stack.devnet.accounts[1].address;
    const destinationClient = createEvmChainClient(destination).publicClient;

    const response = await postBridgeQuote(stack.api.url, user, { origin, destination }, 1_000_000_000_000_000_000n, {
      recipient,
    });
    expect(response.status).toBe(200);
    const quote = response.body;
    expect(quote.steps.map((step: { id: string }) => step.id)).toEqual(["deposit"]);
    const { requestId } = quote.steps[0];
    const before = await pollStatus(stack.api.url, requestId, { until: ["waiting"] });
    expect(before.last.status).toBe("waiting");

    const recipientBefore = await destinationClient.getBalance({ address: recipient });
    const solverBefore = await destinationClient.getBalance({ address: stack.devnet.solver.address });
    const item = quote.steps[0].items[0].data;
    const wallet = createWalletClient({ account: user, chain: toViemChain(origin), transport: http(origin.rpcUrl) });
    const key = await createApiKey(stack.pool, stack.serverKey, { name: "fees" });
    const record = async () =>
      (
        await fetch(`${stack.api.url}/requests/v3?id=${requestId}`, { headers: { "x-api-key": key.key } }).then((r) =>
          r.json(),
        )
      ).requests[0].data;
    const polling = pollStatus(stack.api.url, requestId);
    const depositHash = await wallet.sendTransaction({ to: item.to, data: item.data, value: BigInt(item.value) });

    // The recorded sequence, not the polled one: submitted can last less than a poll's interval.
    const { last } = await polling;
    // Read at once, without waiting for the indexer: the fill the request succeeded on is there (from the solver's
    // receipt, recorded in the transaction that made it a success), in GraphQL `fills` and the v3 `outTxs`.
    const [graphql, recordAtSuccess] = await Promise.all([
      postGraphql(stack.api.url, `query ($id: String!) { request(id: $id) { fills { txHash } } }`, { id: requestId }),
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
    expect(last.inTxHashes).toEqual([depositHash]);
    expect(last.txHashes).toHaveLength(1);

    const expectedOut = BigInt(quote.details.currencyOut.amount);
    expect(await destinationClient.getBalance({ address: recipient })).toBe(recipientBefore + expectedOut);
    const fillReceipt = await destinationClient.getTransactionReceipt({ hash: (last.txHashes as Hex[])[0] });
    const gasPaid = fillReceipt.gasUsed * fillReceipt.effectiveGasPrice;
    expect(await destinationClient.getBalance({ address: stack.devnet.solver.address })).toBe(
      solverBefore - expectedOut - gasPaid,
    );

    // The record carries what each transaction paid for gas, as its receipt says (the receipt's fill and the
    // indexer's agree on it).
    const depositReceipt = await createEvmChainClient(origin).publicClient.getTransactionReceipt({ hash: depositHash });
    const { inTxs, outTxs } = await record();
    expect(inTxs).toMatchObject([
      {
        txHash: depositHash,
        fee: (depositReceipt.gasUsed * depositReceipt.effectiveGasPrice).toString(),
        status: "success",
      },
    ]);
    expect(outTxs).toMatchObject([
      { txHash: fillReceipt.transactionHash, fee: gasPaid.toString(), block: Number(fillReceipt.blockNumber) },
    ]);
  });
});
