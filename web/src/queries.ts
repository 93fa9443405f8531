/** What a request page shows: public fields only (no referrer, nothing of an integrator). */
const REQUEST_FIELDS = `
  id status createdAt updatedAt failReason refundFailReason user recipient refundTo requestType deadline orderId
  originChainId destinationChainId depositAddress { address type } supersededByRequestId parentRequestId
  amountIn currencyIn { symbol decimals address metadata { isNative } }
  route { actual {
    origin {
      inputCurrency { amountFormatted amountUsd currency { symbol } }
      outputCurrency { amountFormatted amountUsd currency { symbol } }
    }
    destination { outputCurrency { amountFormatted amountUsd currency { symbol } } }
  } }
  fees { actual {
    execution { amountFormatted usd } platform { amountFormatted usd } app { amountFormatted usd }
    swap { amountFormatted usd } sponsored { amountFormatted usd }
  } currency { symbol } }
  deposits { txHash chainId reorg }
  fills { txHash chainId }
  failedTransaction { txHash }
  refunds { txHash chainId status reason amount deposited recipient currency { symbol decimals } }
  statusEvents { id status createdAt failReason refundFailReason }
`;

export const CHAINS = `query Chains { chains { id displayName depository explorerUrl explorerPaths { transaction } } }`;

export const REQUEST = `query Request($id: String!) { request(id: $id) { ${REQUEST_FIELDS} } }`;

export const REQUEST_UPDATED = `subscription RequestUpdated($id: String!) {
  requestUpdated(id: $id) { eventId request { ${REQUEST_FIELDS} } }
}`;

export const CHAIN_UPDATED = `subscription ChainUpdated($chainId: Int!) { requestUpdated(chainId: $chainId) { eventId } }`;

export const EXPLORER_REQUESTS = `query ExplorerRequests(
  $term: String, $status: [RequestStatus!], $chainId: Int, $after: String, $first: Int
) {
  explorerRequests(term: $term, status: $status, chainId: $chainId, after: $after, first: $first) {
    id status createdAt originChainId destinationChainId parentRequestId user recipient
    route { actual {
      origin {
        inputCurrency { amountFormatted amountUsd currency { symbol } }
        outputCurrency { amountFormatted amountUsd currency { symbol } }
      }
      destination { outputCurrency { amountFormatted amountUsd currency { symbol } } }
    } }
  }
}`;
