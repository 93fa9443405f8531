import { networks } from "bitcoinjs-lib";
import { describe, expect, it } from "vitest";
import { devnetBitcoinKey } from "../../../devnet/bitcoin/devnetBitcoinKey.js";
import { walletSigner } from "./walletSigner.js";

describe("walletSigner", () => {
  it("takes the key of the wallet the chain names for the role, refuses another", () => {
    const depository = devnetBitcoinKey("depository");
    const solver = devnetBitcoinKey("solver");
    expect(walletSigner(depository.wif, networks.regtest, depository.address, "depository").publicKey).toHaveLength(33);
    expect(walletSigner(solver.wif, networks.regtest, solver.address, "solver").publicKey).toHaveLength(33);
    expect(() =>
      walletSigner(devnetBitcoinKey("other").wif, networks.regtest, depository.address, "depository"),
    ).toThrow(/is not the chain's depository/);
    expect(() => walletSigner(depository.wif, networks.regtest, solver.address, "solver")).toThrow(
      /solver key's address .* is not the chain's solver/,
    );
  });
});
