/**
 * Replaces the last `depth` blocks of an anvil chain with new ones (`anvil_reorg`): the transactions they held are not
 * mined again, so their deposits and fills are gone from the chain, except those of `remine` (signed transactions,
 * each with the new block it goes in, counted from 0).
 */
export async function anvilReorg(
  rpcUrl: string,
  depth: number,
  remine: ReadonlyArray<readonly [rawTransaction: string, blockOffset: number]> = [],
): Promise<void> {
  const response = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "anvil_reorg", params: [depth, remine] }),
  });
  const body = (await response.json()) as { error?: { message: string } };
  if (body.error) throw new Error(`anvil_reorg failed: ${body.error.message}`);
}
