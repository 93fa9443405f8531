/** What a request page shows: public fields only (no referrer, nothing of an integrator). */
const REQUEST_FIELDS = `
  id status createdAt updatedAt failReason refundFailReason user recipient
  originChainId destinationChainId depositAddress { address type } supersededByRequestId
  route { actual {
    origin { inputCurrency { amountFormatted amountUsd currency { symbol } } }
    destination { outputCurrency { amountFormatted amountUsd currency { symbol } } }
  } }
  fees { actual {
    execution { amountFormatted usd } platform { amountFormatted usd } app { amountFormatted usd }
    swap { amountFormatted usd } sponsored { amountFormatted usd }
  } currency { symbol } }
  deposits { txHash chainId reorg }
  fills { txHash chainId }
  failedTransaction { txHash }
  refunds { txHash chainId status reason amount deposited currency { symbol decimals } }
  statusEvents { id status createdAt failReason refundFailReason }
`;

export const CHAINS = `query Chains { chains { id displayName explorerUrl explorerPaths { transaction } } }`;

export const REQUEST = `query Request($id: String!) { request(id: $id) { ${REQUEST_FIELDS} } }`;

export const REQUEST_UPDATED = `subscription RequestUpdated($id: String!) {
  requestUpdated(id: $id) { eventId request { ${REQUEST_FIELDS} } }
}`;

export const CHAIN_UPDATED = `subscription ChainUpdated($chainId: Int!) { requestUpdated(chainId: $chainId) { eventId } }`;

export const EXPLORER_REQUESTS = `query ExplorerRequests($term: String, $first: Int) {
  explorerRequests(term: $term, first: $first) {
    id status createdAt originChainId destinationChainId
    route { actual { origin { inputCurrency { amountFormatted currency { symbol } } } } }
  }
}`;
