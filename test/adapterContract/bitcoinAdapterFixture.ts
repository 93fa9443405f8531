import { bitcoinFactories } from "../../apps/families/bitcoinFactories.js";
import { devnetBitcoinChain } from "../../devnet/bitcoin/devnetBitcoinChain.js";
import { devnetBitcoinKey } from "../../devnet/bitcoin/devnetBitcoinKey.js";
import { signPayment } from "../../devnet/bitcoin/signPayment.js";
import { startDevnetBitcoin } from "../../devnet/bitcoin/startDevnetBitcoin.js";
import { bitcoinChainFamily } from "../../src/chains/bitcoin/bitcoinChainFamily.js";
import { encodeDepositMemo } from "../../src/chains/bitcoin/encodeDepositMemo.js";
import { familyOfChain } from "../../src/chains/familyOfChain.js";
import type { AdapterFixture, FixtureChain } from "./adapterFixture.js";

// What the fixture's deposits pay their miner.
const DEPOSIT_FEE = 2_000n;

/**
 * Bitcoin in the adapter contract suite: the devnet's regtest chain behind its Esplora, mined on demand, the adapter
 * holding the depository's key (refunds) and the solver wallet's (payouts).
 */
export const bitcoinAdapterFixture: AdapterFixture = {
  name: "bitcoin",
  sampleAddress: "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080",
  sampleTxHash: "cd".repeat(32),
  async start(): Promise<FixtureChain> {
    const btc = await startDevnetBitcoin({ blockTimeMs: 0 });
    const chain = bitcoinChainFamily.configSchema.parse(devnetBitcoinChain(btc));
    const roles = bitcoinFactories.adapter(chain, { depositoryWif: btc.depository.wif, solverWif: btc.solver.wif }, {});
    const payer = btc.accounts[0]!;
    const esplora = async <T>(path: string) => (await fetch(`${btc.esploraUrl}${path}`)).json() as Promise<T>;
    const depth = (blockNumber: bigint) => btc.chain.tip().height - Number(blockNumber) + 1;
    let addresses = 0;

    return {
      roles,
      capabilities: familyOfChain(chain).capabilities(chain),
      addressSpellings: [payer.address, payer.address.toUpperCase()],
      // Mainnet's BIP173 vector (another network), and the regtest address in mixed case (BIP173 refuses it).
      refusedAddresses: ["bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", payer.address.replace(/q/, "Q")],
      amount: 1_000_000n,
      newAddress: () => devnetBitcoinKey(`adapter contract recipient ${++addresses}`).address,
      async deposit(order, amount) {
        type Utxo = { txid: string; vout: number; value: number; status: { confirmed: boolean } };
        const utxos = await esplora<Utxo[]>(`/address/${payer.address}/utxo`);
        const input = utxos
          .filter((utxo) => utxo.status.confirmed)
          .reduce((largest, utxo) => (utxo.value > largest.value ? utxo : largest));
        const value = BigInt(input.value);
        const rawTx = signPayment({
          network: btc.network,
          wif: payer.wif,
          inputs: [{ txid: input.txid, vout: input.vout, value }],
          outputs: [
            { address: chain.depository, value: amount },
            // The memo names the request, as the quote's PSBT does.
            { opReturn: encodeDepositMemo(order.requestId) },
            { address: payer.address, value: value - amount - DEPOSIT_FEE },
          ],
        });
        const response = await fetch(`${btc.esploraUrl}/tx`, { method: "POST", body: rawTx });
        if (!response.ok) throw new Error(`the devnet refused the deposit: ${await response.text()}`);
        const txHash = await response.text();
        btc.mine(1);
        return { txHash, depositor: payer.address, amount, factOrderId: order.requestId };
      },
      mine: async (blocks) => void btc.mine(blocks),
      reorgOut: async (deposit) => void btc.reorg(depth(deposit.blockNumber), { dropTxids: [deposit.txHash] }),
      async reorgMoving(deposit) {
        // Back to the mempool under empty blocks, then into the next one.
        btc.reorg(depth(deposit.blockNumber));
        btc.mine(1);
      },
      async balance(address) {
        type Stats = { funded_txo_sum: number; spent_txo_sum: number };
        const { chain_stats: mined, mempool_stats: waiting } = await esplora<{
          chain_stats: Stats;
          mempool_stats: Stats;
        }>(`/address/${address}`);
        return BigInt(mined.funded_txo_sum - mined.spent_txo_sum + waiting.funded_txo_sum - waiting.spent_txo_sum);
      },
      stop: () => btc.stop(),
    };
  },
};
