import { Block, script as bscript, Transaction } from "bitcoinjs-lib";

/** Regtest's proof-of-work limit: every header hash meets it in theory; the devnet never grinds nonces. */
export const regtestBits = 0x207fffff;

export type BlockTemplate = {
  prevHash: Uint8Array | undefined;
  height: number;
  timestamp: number;
  /** Transactions after the coinbase, in block order. */
  transactions: Transaction[];
  /** The miner's coinbase; absent for the genesis block, whose funding transactions are all coinbase-like. */
  coinbase?: { script: Uint8Array; value: bigint; tag: number };
};

/**
 * A block with a real header: merkle root and hash (double SHA-256) computed by bitcoinjs, a BIP34 height in
 * the coinbase, and the BIP141 witness commitment when it pays a miner. `tag` makes two blocks mined at the
 * same height and second (a reorg's replacements) distinct.
 */
export function buildBlock(template: BlockTemplate): Block {
  const block = new Block();
  block.version = 0x20000000;
  block.prevHash = template.prevHash ?? new Uint8Array(32);
  block.timestamp = template.timestamp;
  block.bits = regtestBits;
  block.nonce = 0;
  const transactions = [...template.transactions];
  if (template.coinbase) transactions.unshift(coinbase(template.height, template.coinbase, template.transactions));
  block.transactions = transactions;
  block.merkleRoot = Block.calculateMerkleRoot(transactions);
  // What Block.fromBuffer would set, so checkTxRoots() can verify the commitment.
  block.witnessCommit = block.getWitnessCommit() ?? undefined;
  return block;
}

/** A coinbase-like input: null outpoint, scriptSig pushing the height (BIP34) and a distinguishing tag. */
export function coinbaseInputScript(height: number, tag: number): Uint8Array {
  return bscript.compile([bscript.number.encode(height), bscript.number.encode(tag)]);
}

function coinbase(height: number, payout: NonNullable<BlockTemplate["coinbase"]>, rest: Transaction[]): Transaction {
  const tx = new Transaction();
  tx.version = 2;
  tx.addInput(new Uint8Array(32), 0xffffffff, 0xffffffff, coinbaseInputScript(height, payout.tag));
  tx.setWitness(0, [new Uint8Array(32)]); // the witness reserved value
  tx.addOutput(payout.script, payout.value);
  // The coinbase's wtxid counts as zero, so the commitment can be computed before its output is added.
  const witnessRoot = Block.calculateMerkleRoot([tx, ...rest], true);
  const commitment = new Uint8Array([0xaa, 0x21, 0xa9, 0xed, ...witnessRoot]);
  tx.addOutput(bscript.compile([bscript.OPS.OP_RETURN, commitment]), 0n);
  return tx;
}

/** Esplora's `difficulty`: the ratio of the mainnet genesis target to this block's. */
export function difficultyOf(bits: number): number {
  const target = (b: number) => (b & 0xffffff) * 2 ** (8 * ((b >>> 24) - 3));
  return target(0x1d00ffff) / target(bits);
}
