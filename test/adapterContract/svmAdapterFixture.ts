import { Connection, Keypair, PublicKey, SystemProgram, Transaction } from "@solana/web3.js";
import bs58 from "bs58";
import { devnetSolanaChain } from "../../devnet/svm/devnetSolanaChain.js";
import { startDevnetSolana } from "../../devnet/svm/startDevnetSolana.js";
import { familyOfChain } from "../../src/chains/familyOfChain.js";
import { svmRoles } from "../../src/chains/svm/svmRoles.js";
import { memoInstruction } from "../../src/chains/svm/memoInstruction.js";
import { svmChainFamily } from "../../src/chains/svm/svmChainFamily.js";
import type { AdapterFixture, FixtureChain } from "./adapterFixture.js";

/**
 * Solana in the adapter contract suite: the devnet's litesvm behind its JSON-RPC, slots only on demand and every
 * landed transaction at once confirmed and finalized (so depth is what the checks count). Its roles are the worker's,
 * with the solver's key (fills) and the depository's (refunds). It has no forks to reorg: those tests are skipped.
 */
export const svmAdapterFixture: AdapterFixture = {
  name: "solana",
  sampleAddress: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
  sampleTxHash: bs58.encode(new Uint8Array(64).fill(7)),
  async start(): Promise<FixtureChain> {
    const solana = await startDevnetSolana({ slotMs: 0, confirmedAfterSlots: 0, finalizedAfterSlots: 0 });
    const chain = svmChainFamily.configSchema.parse(devnetSolanaChain(solana));
    const connection = new Connection(solana.rpcUrl, "confirmed");
    const payer = solana.accounts[0]!;
    const canonical = payer.publicKey.toBase58();
    return {
      roles: svmRoles(chain, {
        signsFills: true,
        solverSecretKey: bs58.encode(solana.solver.secretKey),
        depositorySecretKey: bs58.encode(solana.depository.secretKey),
      }),
      capabilities: familyOfChain(chain).capabilities(chain),
      addressSpellings: [canonical],
      // A key one byte short, one with a character base58 lacks, and the native id.
      refusedAddresses: [
        bs58.encode(payer.publicKey.toBytes().subarray(1)),
        `${canonical.slice(0, -1)}0`,
        "1".repeat(32),
      ],
      amount: 1_000_000n,
      unsupported: {
        reorgs: "the devnet Solana has no forks",
      },
      newAddress: () => Keypair.generate().publicKey.toBase58(),
      async deposit(order, amount) {
        // A slot of its own, which is the head.
        solana.advance(1);
        const { blockhash } = await connection.getLatestBlockhash();
        const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash }).add(
          SystemProgram.transfer({
            fromPubkey: payer.publicKey,
            toPubkey: solana.depository.publicKey,
            lamports: amount,
          }),
          memoInstruction(order.orderId),
        );
        tx.sign(payer);
        const txHash = await connection.sendRawTransaction(tx.serialize());
        return { txHash, depositor: canonical, amount, factOrderId: order.orderId };
      },
      mine: async (blocks) => solana.advance(blocks),
      balance: async (address) => BigInt(await connection.getBalance(new PublicKey(address))),
      stop: () => solana.stop(),
    };
  },
};
