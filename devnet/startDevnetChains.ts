import type { CurrencyPriceConfig } from "../src/chains/commonChainFields.js";
import type { ConfirmationTier } from "../src/domain/requiredConfirmations.js";
import type { Address, Hex, PrivateKeyAccount } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { deployContracts, type DevnetCurrency } from "./deployContracts.js";
import { anvilMnemonic, devnetAccounts } from "./devnetAccounts.js";
import { devnetNativeCurrency } from "./devnetNativeCurrency.js";
import { freePort } from "./freePort.js";
import { fundAccounts } from "./fundAccounts.js";
import { type AnvilInstance, startAnvil } from "./startAnvil.js";

/** One local chain, shaped as an entry of the chains file (`chainConfigSchema`) plus `callTarget`. */
export type DevnetChain = {
  id: number;
  name: string;
  displayName: string;
  vmType: "evm";
  rpcUrl: string;
  wsUrl: string;
  /** Published by GET /chains for wallets: a local node has no key, so the same URLs as the solver's. */
  publicRpcUrl: string;
  publicWsUrl: string;
  explorerUrl: string;
  blockTimeSeconds: number;
  startBlock: number;
  depository: Address;
  receiver: Address;
  callTarget: Address;
  nativeCurrency: { symbol: string; name: string; decimals: number };
  currencies: DevnetCurrency[];
  confirmations: ConfirmationTier[];
  /** The price feeds the chain names (commonChainFields `prices`): none until the devnet's price service adds them. */
  prices: Record<string, CurrencyPriceConfig>;
};

/** A viem local account that also carries its key (devnet keys are public anyway). */
export type DevnetSigner = PrivateKeyAccount & { privateKey: Hex };

export type DevnetChains = {
  chains: DevnetChain[];
  /** The five test accounts (mnemonic indexes 1..5), funded with ETH, USDC and WETH on every chain. */
  accounts: DevnetSigner[];
  /** Mnemonic index 0: deployer, Depository owner and Receiver solver on every chain. */
  solver: DevnetSigner;
  stop(): Promise<void>;
};

export type StartDevnetChainsOptions = {
  chainIds: number[];
  /** Chain i listens on basePort + i; without it each chain gets a free port. */
  basePort?: number;
  /** Seconds between blocks; 0 = automine (one block per transaction). */
  blockTime: number;
  mnemonic?: string;
  /** Confirmation tiers for every chain; none by default, so devnet deposits are filled at once. */
  confirmations?: ConfirmationTier[];
};

const signer = (privateKey: Hex): DevnetSigner => Object.assign(privateKeyToAccount(privateKey), { privateKey });

/** Starts one anvil per chain id, deploys the contracts on each and funds the accounts. */
export async function startDevnetChains(options: StartDevnetChainsOptions): Promise<DevnetChains> {
  const { chainIds, basePort, blockTime, mnemonic = anvilMnemonic, confirmations } = options;
  if (chainIds.length === 0) throw new Error("startDevnetChains needs at least one chain id");
  if (chainIds.length > 26) throw new Error("at most 26 devnet chains (named devnet-a … devnet-z)");
  if (new Set(chainIds).size !== chainIds.length) throw new Error(`duplicate chain ids: ${chainIds.join(", ")}`);

  const keys = devnetAccounts(mnemonic);
  const solver = signer(keys.solver.privateKey);
  const accounts = keys.testAccounts.map((a) => signer(a.privateKey));

  const anvils: AnvilInstance[] = [];
  const stop = async () => {
    await Promise.all(anvils.map((a) => a.stop()));
  };
  // allSettled: on a failure, every anvil that did start must be known, to be stopped.
  const started = await Promise.allSettled(
    chainIds.map(async (chainId, i) => {
      const port = basePort !== undefined ? basePort + i : await freePort();
      return startAnvil({ chainId, port, blockTime, mnemonic });
    }),
  );
  for (const r of started) if (r.status === "fulfilled") anvils.push(r.value);
  const failed = started.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) {
    await stop();
    throw failed.reason;
  }

  try {
    const chains = await Promise.all(
      anvils.map(async (anvil, i): Promise<DevnetChain> => {
        const { rpcUrl, wsUrl, chainId } = anvil;
        const deployed = await deployContracts({
          rpcUrl,
          chainId,
          deployerPrivateKey: solver.privateKey,
          solverAddress: solver.address,
        });
        const nativeCurrency = devnetNativeCurrency(chainId);
        // The wrapped native contract is WETH9 ("Wrapped Ether", "WETH"): it is listed only where the native is ether,
        // so a chain with another native (HYPE on 999) never prices its wrapped coin as ether.
        const currencies =
          nativeCurrency.symbol === "ETH" ? deployed.currencies : deployed.currencies.filter((c) => !c.wrapsNative);
        await fundAccounts({
          rpcUrl,
          chainId,
          funderPrivateKey: solver.privateKey,
          currencies,
          recipients: [solver, ...accounts],
        });
        const letter = String.fromCharCode(97 + i);
        return {
          id: chainId,
          name: `devnet-${letter}`,
          displayName: `Devnet ${letter.toUpperCase()}`,
          vmType: "evm",
          rpcUrl,
          wsUrl,
          publicRpcUrl: rpcUrl,
          publicWsUrl: wsUrl,
          explorerUrl: "",
          // Automine has no block time; 1 s keeps the config valid (it must be positive) and ETAs sane.
          blockTimeSeconds: blockTime > 0 ? blockTime : 1,
          startBlock: deployed.startBlock,
          depository: deployed.depository,
          receiver: deployed.receiver,
          callTarget: deployed.callTarget,
          nativeCurrency,
          currencies,
          confirmations: confirmations ?? [],
          prices: {},
        };
      }),
    );
    return { chains, accounts, solver, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
