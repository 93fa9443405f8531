import { randomBytes } from "node:crypto";
import { type Address, parseEther, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evmFactories } from "../../apps/families/evmFactories.js";
import { type DevnetChains, startDevnetChains } from "../../devnet/startDevnetChains.js";
import type { FillOrder, QuotePort } from "../chains/adapter.js";
import { evmChainConfigSchema } from "../chains/evm/evmChainFamily.js";
import { evmSolver } from "../chains/evm/evmSolver.js";
import { SimulationRevertedError } from "../domain/errors.js";
import { simulateCalls } from "./simulateCalls.js";

const CHAIN_ID = 31392;
const id = () => `0x${randomBytes(32).toString("hex")}`;

/** Against a devnet anvil with the devnet's contracts, through the EVM family's own quote port. */
describe("simulateCalls", () => {
  let devnet: DevnetChains;
  let destination: QuotePort;
  let depository: Address;
  let receiver: Address;
  beforeAll(async () => {
    devnet = await startDevnetChains({ chainIds: [CHAIN_ID], blockTime: 0 });
    const chain = evmChainConfigSchema.parse(devnet.chains[0]);
    depository = chain.depository as Address;
    receiver = chain.receiver as Address;
    destination = evmFactories.adapter(chain, { solver: evmSolver(devnet.solver.privateKey) }, {}).quoter;
  });
  afterAll(() => devnet?.stop());

  const order = (calls: FillOrder["calls"]): FillOrder => ({
    requestId: id(),
    orderId: id(),
    currency: zeroAddress,
    amount: parseEther("0.01"),
    recipient: devnet.accounts[1]!.address,
    calls,
    currencySymbol: "ETH",
  });

  it("passes a fill whose calls run", async () => {
    await expect(simulateCalls(destination, order([]))).resolves.toBeUndefined();
    const toAccount = { to: devnet.accounts[2]!.address, value: parseEther("0.001"), data: "0x" };
    await expect(simulateCalls(destination, order([toAccount]))).resolves.toBeUndefined();
  });

  it("refuses the quote with the call that reverted, the request and the simulated block", async () => {
    // The Depository has no function 0xdeadbeef and no fallback: the request's second call reverts.
    const reverting = { to: depository, value: 0n, data: "0xdeadbeef" };
    const fill = order([{ to: devnet.accounts[2]!.address, value: 0n, data: "0x" }, reverting]);
    const refusal = await simulateCalls(destination, fill).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(SimulationRevertedError);
    const { errorCode, status, data } = refusal as SimulationRevertedError;
    expect({ errorCode, status }).toEqual({ errorCode: "DESTINATION_TX_FAILED", status: 400 });
    expect(data).toMatchObject({
      requestId: fill.requestId,
      // The fill's own transaction (the Receiver's fill, paying the amount), as the spec's failedCallData shows it.
      failedCallData: { to: receiver, value: "10000000000000000" },
    });
    expect((data as { approxSimulatedBlock: number }).approxSimulatedBlock).toBeGreaterThanOrEqual(0);
  });
});
