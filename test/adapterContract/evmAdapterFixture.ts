import { type Address, type Hex, encodeFunctionData, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { evmFactories } from "../../apps/families/evmFactories.js";
import { depositoryAbi } from "../../contracts/abis.js";
import { devnetWalletClient } from "../../devnet/devnetWalletClient.js";
import { startDevnetChains } from "../../devnet/startDevnetChains.js";
import { evmChainConfigSchema } from "../../src/chains/evm/evmChainFamily.js";
import { evmSolver } from "../../src/chains/evm/evmSolver.js";
import { anvilReorg } from "../support/anvilReorg.js";
import { familyOfChain } from "../../src/chains/familyOfChain.js";
import type { AdapterFixture, FixtureChain } from "./adapterFixture.js";

const CHAIN_ID = 31391;

/** EVM in the adapter contract suite: one anvil with the devnet's contracts, the devnet solver as the solver. */
export const evmAdapterFixture: AdapterFixture = {
  name: "evm",
  sampleAddress: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  sampleTxHash: `0x${"ab".repeat(32)}`,
  async start(): Promise<FixtureChain> {
    const devnet = await startDevnetChains({ chainIds: [CHAIN_ID], blockTime: 0 });
    const [devnetChain] = devnet.chains;
    const chain = evmChainConfigSchema.parse(devnetChain);
    const roles = evmFactories.adapter(chain, { solver: evmSolver(devnet.solver.privateKey) }, {});
    const payer = devnet.accounts[0]!;
    const wallet = devnetWalletClient({ rpcUrl: chain.rpcUrl, chainId: CHAIN_ID, privateKey: payer.privateKey });
    // The signed deposits, for a reorg to mine one again.
    const rawTransactions = new Map<string, Hex>();
    const rpc = (method: string, params: unknown[]) => wallet.request({ method, params } as never);
    const head = () => wallet.getBlockNumber({ cacheTime: 0 });
    const depth = async (blockNumber: bigint) => Number((await head()) - blockNumber) + 1;
    const mine = async (blocks: number) => void (await rpc("anvil_mine", [`0x${blocks.toString(16)}`]));

    return {
      roles,
      capabilities: familyOfChain(chain).capabilities(chain),
      addressSpellings: [payer.address, payer.address.toLowerCase(), `0x${payer.address.slice(2).toUpperCase()}`],
      // One byte short, and not hex (any case is taken: a wrong checksum is no refusal).
      refusedAddresses: [payer.address.slice(0, 40), `0x${"g".repeat(40)}`],
      amount: parseEther("0.01"),
      newAddress: () => privateKeyToAccount(generatePrivateKey()).address,
      async deposit(order, amount) {
        const request = await wallet.prepareTransactionRequest({
          to: chain.depository as Address,
          data: encodeFunctionData({
            abi: depositoryAbi,
            functionName: "depositNative",
            args: [payer.address, order.orderId as Hex],
          }),
          value: amount,
        });
        const rawTx = await wallet.signTransaction(request);
        const txHash = await wallet.sendRawTransaction({ serializedTransaction: rawTx });
        rawTransactions.set(txHash, rawTx);
        await wallet.waitForTransactionReceipt({ hash: txHash });
        return { txHash, depositor: payer.address, amount, factOrderId: order.orderId };
      },
      mine,
      reorgOut: async (deposit) => anvilReorg(chain.rpcUrl, await depth(deposit.blockNumber)),
      async reorgMoving(deposit) {
        // Mined again one block later than before (a block of its own at the same height could hash the same).
        if ((await head()) === deposit.blockNumber) await mine(1);
        const rawTx = rawTransactions.get(deposit.txHash);
        if (!rawTx) throw new Error(`no signed deposit ${deposit.txHash} to mine again`);
        await anvilReorg(chain.rpcUrl, await depth(deposit.blockNumber), [[rawTx, 1]]);
      },
      balance: (address) => wallet.getBalance({ address: address as Address }),
      stop: () => devnet.stop(),
    };
  },
};
