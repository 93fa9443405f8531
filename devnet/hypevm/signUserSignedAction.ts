import type { PrivateKeyAccount } from "viem";
import { signExchangeAction } from "../../src/chains/hypevm/signExchangeAction.js";
import type { ExchangeRequest, UserSignedAction } from "./parseExchangeRequest.js";
import { eip712TypesOf } from "./userSignedActionTypes.js";

/** Signs any of the devnet's user-signed transfers as the exchange's SDKs do: the `POST /exchange` body. */
export const signUserSignedAction = (signer: PrivateKeyAccount, action: UserSignedAction): Promise<ExchangeRequest> =>
  signExchangeAction(signer, action, eip712TypesOf(action.type));
