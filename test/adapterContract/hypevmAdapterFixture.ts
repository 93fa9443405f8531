import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { devnetExchangeChain } from "../../devnet/hypevm/devnetExchangeChain.js";
import { startDevnetExchange } from "../../devnet/hypevm/startDevnetExchange.js";
import { familyOfChain } from "../../src/chains/familyOfChain.js";
import { hypevmChainConfigSchema } from "../../src/chains/hypevm/hypevmChainFamily.js";
import { PERPS_USDC_CURRENCY } from "../../src/chains/hypevm/hypevmFamily.js";
import { hypevmRoles } from "../../src/chains/hypevm/hypevmRoles.js";
import { SEND_ASSET_TYPES } from "../../src/chains/hypevm/sendAssetTypes.js";
import { sendAssetTo } from "../../src/chains/hypevm/sendAssetTo.js";
import { signExchangeAction } from "../../src/chains/hypevm/signExchangeAction.js";
import type { AdapterFixture, FixtureChain } from "./adapterFixture.js";

/**
 * The perps exchange in the adapter contract suite: the devnet's local exchange on a clock the fixture moves (a
 * "block" is a second of its ledger). A user's deposit is a signed `sendAsset` to the depository whose (signer, nonce)
 * the fixture maps to the order, as `/authorize` would. The ledger has no reorgs.
 */
export const hypevmAdapterFixture: AdapterFixture = {
  name: "perps exchange",
  sampleAddress: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
  sampleTxHash: `0x${"cd".repeat(32)}`,
  // Its accounts are EVM addresses and its ledger's hashes 32 bytes, by design: the EVM family reads the same forms.
  sharesEncodingsWith: ["evm"],
  async start(): Promise<FixtureChain> {
    let clock = Date.now();
    const exchange = await startDevnetExchange({ now: () => clock });
    const chain = hypevmChainConfigSchema.parse(devnetExchangeChain(exchange));
    const mapped = new Map<string, string>();
    const user = exchange.accounts[0]!;
    let nonce = Date.now();
    return {
      roles: hypevmRoles(
        chain,
        { solverPrivateKey: exchange.solver.privateKey, depositoryPrivateKey: exchange.depository.privateKey },
        async (sender, n) => mapped.get(`${sender.toLowerCase()}:${n}`),
      ),
      capabilities: familyOfChain(chain).capabilities(chain),
      addressSpellings: [user.address, user.address.toLowerCase()],
      // Shorter than a currency id, odd hex, and a prefix the exchange never writes (a currency id is no refusal:
      // the codec reads both; recipientRefusal turns it away).
      refusedAddresses: [`0x${"ab".repeat(15)}`, `0x${"a".repeat(41)}`, user.address.replace("0x", "0X")],
      // 3 USDC: above the 1 USDC a refund to a new account costs.
      amount: 300_000_000n,
      newAddress: () => privateKeyToAccount(generatePrivateKey()).address,
      async deposit(order, amount) {
        // A second of its own, which is the head.
        clock += 1_000;
        const action = sendAssetTo({
          recipient: exchange.depository.address,
          currency: PERPS_USDC_CURRENCY,
          amount,
          currencies: chain.currencies,
          network: chain.network,
          nonce: ++nonce,
          signatureChainId: 42161,
        })!;
        mapped.set(`${user.address.toLowerCase()}:${nonce}`, order.orderId);
        const answer = await exchange.ledger.submit(await signExchangeAction(user, action, SEND_ASSET_TYPES));
        if (answer.status !== "ok") throw new Error(`the deposit was refused: ${answer.response}`);
        const update = exchange.ledger.updates(exchange.depository.address).at(-1)!;
        return { txHash: update.hash, depositor: user.address, amount, factOrderId: order.orderId };
      },
      mine: async (blocks) => void (clock += blocks * 1_000),
      unsupported: { reorgs: "the exchange's ledger has no reorgs" },
      namesTransactionsOnCommit: true,
      balance: async (address) => exchange.ledger.perpsBalance(address),
      stop: () => exchange.stop(),
    };
  },
};
