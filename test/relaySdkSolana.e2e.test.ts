import { getClient } from "@relayprotocol/relay-sdk";
import { adaptSolanaWallet } from "@relayprotocol/relay-svm-wallet-adapter";
import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import { Connection, type Keypair, PublicKey } from "@solana/web3.js";
import { type Address, zeroAddress } from "viem";
import { generatePrivateKey, privateKeyToAddress } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEvmChainClient } from "../src/chains/evm/evmChainClient.js";
import { SOLANA_NATIVE_CURRENCY } from "../src/chains/svm/svmFamily.js";
import { connectRelayClient } from "./support/connectRelayClient.js";
import { type TestStack, startTestStack } from "./support/startTestStack.js";

/**
 * The official client on a Solana origin, unmodified: @relayprotocol/relay-sdk with the official SVM wallet adapter
 * over a Keypair-backed wallet sending to the devnet Solana's JSON-RPC. Every indexer is stopped once the stack is up,
 * so the service learns of each deposit only from the client's own POST /transactions/index after sending it.
 */
describe("@relayprotocol/relay-sdk with @relayprotocol/relay-svm-wallet-adapter: Solana → EVM", () => {
  let stack: TestStack;
  let connection: Connection;
  beforeAll(async () => {
    stack = await startTestStack({ solana: true });
    const { rpcUrl, wsUrl } = stack.solana!.devnet;
    connection = new Connection(rpcUrl, { commitment: "confirmed", wsEndpoint: wsUrl });
    await connectRelayClient(stack.api.url);
    await stack.stopIndexers();
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  });

  const solana = () => stack.solana!;
  const evmChain = () => stack.devnet.chains[0];
  const evmUsdc = () => evmChain().currencies.find((currency) => currency.symbol === "USDC")!.address as Address;
  const lamports = async (owner: PublicKey) => BigInt(await connection.getBalance(owner));
  const tokens = async (owner: PublicKey) => {
    const account = await connection.getAccountInfo(
      getAssociatedTokenAddressSync(new PublicKey(solana().devnet.usdcMint), owner),
    );
    return account ? Buffer.from(account.data).readBigUInt64LE(64) : 0n;
  };
  /** A wallet as a Solana wallet app is one: it signs with its key and sends to its RPC, answering the signature. */
  const walletOf = (user: Keypair) =>
    adaptSolanaWallet(user.publicKey.toBase58(), solana().chain.id, connection, async (transaction, options) => {
      transaction.sign([user]);
      return { signature: await connection.sendTransaction(transaction, options) };
    });

  it.each([
    ["SOL to ETH", 0, () => SOLANA_NATIVE_CURRENCY, () => zeroAddress, 1_000_000_000n],
    ["USDC to EVM USDC", 1, () => solana().devnet.usdcMint, evmUsdc, 25_000_000n],
  ])(
    "runs getQuote then execute to success for %s, to the lamport and the wei",
    async (_name, accountIndex, currency, toCurrency, amount) => {
      const user = solana().devnet.accounts[accountIndex]!;
      const depository = solana().devnet.depository.publicKey;
      const recipient = privateKeyToAddress(generatePrivateKey());
      const native = currency() === SOLANA_NATIVE_CURRENCY;
      expect(getClient().chains.find((chain) => chain.id === solana().chain.id)?.vmType).toBe("svm");

      const quote = await getClient().actions.getQuote({
        chainId: solana().chain.id,
        toChainId: evmChain().id,
        currency: currency(),
        toCurrency: toCurrency(),
        amount: amount.toString(),
        tradeType: "EXACT_INPUT",
        user: user.publicKey.toBase58(),
        recipient,
      });
      expect(quote.steps.map((step) => step.id)).toEqual(["deposit"]);
      const out = BigInt(quote.details!.currencyOut!.amount!);
      const before = {
        lamports: await lamports(user.publicKey),
        tokens: await tokens(user.publicKey),
        depository: native ? await lamports(depository) : await tokens(depository),
      };

      const statuses: string[] = [];
      const { data } = await getClient().actions.execute({
        quote,
        wallet: walletOf(user),
        onProgress: ({ currentStepItem }) => {
          const status = (currentStepItem as { checkStatus?: string } | undefined)?.checkStatus;
          if (status && status !== statuses.at(-1)) statuses.push(status);
        },
      });

      const item = data.steps[0]!.items![0]!;
      expect(item.status).toBe("complete");
      // The deposit's signature as the client records it (its txHashes are the fill's by now).
      const signature = item.internalTxHashes![0]!.txHash;
      expect(item.internalTxHashes).toEqual([expect.objectContaining({ chainId: solana().chain.id })]);
      expect(item.txHashes).toEqual([expect.objectContaining({ chainId: evmChain().id })]);
      // The deposit reached the service only through the client's POST /transactions/index (no indexer runs).
      const { rows: facts } = await stack.pool.query(
        "SELECT source, depositor, currency, amount FROM crossfill.deposit_facts WHERE chain_id = $1 AND tx_hash = $2",
        [solana().chain.id, signature],
      );
      expect(facts).toEqual([
        { source: "manual", depositor: user.publicKey.toBase58(), currency: currency(), amount: amount.toString() },
      ]);
      const { rows: events } = await stack.pool.query(
        "SELECT to_status FROM crossfill.status_events WHERE request_id = $1 ORDER BY id",
        [quote.steps[0]!.requestId],
      );
      const lifecycle = events.map((event) => event.to_status);
      expect(lifecycle).toEqual(["waiting", "pending", "submitted", "success"]);
      // What the client's progress callback saw (polling every 250 ms): the service's statuses in their order, some
      // perhaps between two polls, ending in success.
      expect(statuses).toContain("pending");
      expect(statuses.at(-1)).toBe("success");
      expect(lifecycle.filter((status) => statuses.includes(status))).toEqual(statuses);

      const fee = BigInt(
        (await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 }))!.meta!.fee,
      );
      // One signature's 5,000 lamports: the user's the only one (the adapter compiles the quote's instructions as is).
      expect(fee).toBe(5_000n);
      expect(before.lamports - (await lamports(user.publicKey))).toBe(native ? amount + fee : fee);
      expect(before.tokens - (await tokens(user.publicKey))).toBe(native ? 0n : amount);
      expect((native ? await lamports(depository) : await tokens(depository)) - before.depository).toBe(amount);
      const evm = createEvmChainClient(evmChain());
      expect(await evm.balanceOf(recipient, toCurrency())).toBe(out);
    },
    60_000,
  );
});
