import { getAddress, type Address, type Hex } from "viem";
import { nonceMappingTypedData } from "../../domain/nonceMappingTypedData.js";
import { formatAmount } from "../../domain/money.js";
import { SEND_ASSET_TYPES } from "./sendAssetTypes.js";

export type WithdrawalStepsInput = {
  requestId: Hex;
  /** `protocol.v2.orderId`: the id the nonce mapping binds the transfer to. */
  orderId: Hex;
  /** The user's wallet (it signs both steps) and the exchange account the transfer leaves (the same wallet here). */
  wallet: Address;
  depositor: Address;
  /** The service's account on the exchange that receives the transfer. */
  depository: Address;
  /** The network the transfer is signed for (`hyperliquidChain`). */
  network: "Mainnet" | "Testnet";
  /** The token as actions name it (`NAME:0x<tokenId>`; perps USDC is named by spot USDC's) and its dex. */
  token: string;
  dex: "" | "spot";
  /** Base units of the token (8 decimals for perps USDC) and the token's decimals. */
  amount: bigint;
  decimals: number;
  /** The transfer's nonce, milliseconds: signed in both steps, so the transfer maps to this request. */
  nonce: number;
  /** The chain the wallet signs on by default; the official client overrides it with the wallet's active chain. */
  signatureChainId?: number;
};

/**
 * The two steps of a withdrawal from the perps exchange (the spec's "Perps exchange chain flow"): `authorize`, the
 * wallet's signed nonce mapping posted to `/authorize` (no `check`: the official client would poll it until the
 * request succeeds, before the transfer is made), then `deposit`, the exchange's `sendAsset` of the amount to the
 * depository with the same nonce, which the wallet signs and posts to the exchange itself.
 */
export function withdrawalSteps(input: WithdrawalStepsInput) {
  const { requestId, orderId, wallet, depositor, nonce, signatureChainId = 1 } = input;
  const typed = nonceMappingTypedData({ wallet, depositor, nonce: BigInt(nonce), id: orderId }, signatureChainId);
  const authorize = {
    id: "authorize" as const,
    action: "Sign authorization",
    description: "Authorize the transfer from the exchange for this request",
    kind: "signature" as const,
    requestId,
    items: [
      {
        status: "incomplete" as const,
        data: {
          sign: {
            signatureKind: "eip712" as const,
            domain: typed.domain,
            types: typed.types,
            primaryType: typed.primaryType,
            value: { ...typed.message, nonce: String(nonce) },
          },
          post: {
            endpoint: "/authorize",
            method: "POST" as const,
            body: {
              type: "nonce-mapping" as const,
              walletChainId: signatureChainId,
              wallet,
              depositor,
              nonce: String(nonce),
              id: orderId,
              signatureChainId,
            },
          },
        },
      },
    ],
  };
  const deposit = {
    id: "deposit" as const,
    action: "Confirm transaction in your wallet",
    description: "Send the amount from the exchange to the depository",
    kind: "transaction" as const,
    requestId,
    depositAddress: "",
    items: [
      {
        status: "incomplete" as const,
        data: {
          action: {
            type: "sendAsset" as const,
            parameters: {
              hyperliquidChain: input.network,
              // The exchange signs strings as sent: addresses in lower case, as its SDKs write them.
              destination: getAddress(input.depository).toLowerCase(),
              sourceDex: input.dex,
              destinationDex: input.dex,
              token: input.token,
              amount: formatAmount(input.amount, input.decimals),
              fromSubAccount: "",
              nonce,
            },
          },
          nonce,
          eip712Types: SEND_ASSET_TYPES,
          eip712PrimaryType: "HyperliquidTransaction:SendAsset" as const,
        },
        check: { endpoint: `/intents/status/v3?requestId=${requestId}`, method: "GET" as const },
      },
    ],
  };
  return [authorize, deposit] as const;
}
