/** The signed-in dashboard's operations (the caller's integrator only: the API refuses anything else). */
const KEY_FIELDS = `id name integrator elevated managesKeys current createdAt revokedAt
  webhook { url enabled headerNames disabledReason }`;

export const VIEWER = `query Viewer { viewer { ${KEY_FIELDS} } }`;

export const API_KEYS = `query ApiKeys { apiKeys { ${KEY_FIELDS} } }`;

export const CREATE_API_KEY = `mutation CreateApiKey($name: String!) {
  createApiKey(name: $name) { key apiKey { id name } }
}`;

export const RENAME_API_KEY = `mutation RenameApiKey($id: ID!, $name: String!) { renameApiKey(id: $id, name: $name) { id name } }`;

export const REVOKE_API_KEY = `mutation RevokeApiKey($id: ID!) { revokeApiKey(id: $id) { id revokedAt } }`;

export const SET_WEBHOOK = `mutation SetWebhook($apiKeyId: ID, $url: String!, $enabled: Boolean, $headers: [WebhookHeaderInput!]) {
  setWebhook(apiKeyId: $apiKeyId, url: $url, enabled: $enabled, headers: $headers) { url enabled headerNames disabledReason }
}`;

export const SEND_TEST_WEBHOOK = `mutation SendTestWebhook($apiKeyId: ID) { sendTestWebhook(apiKeyId: $apiKeyId) { id } }`;

export const REPLAY_WEBHOOK_DELIVERY = `mutation ReplayWebhookDelivery($id: ID!, $apiKeyId: ID) {
  replayWebhookDelivery(id: $id, apiKeyId: $apiKeyId) { id status }
}`;

export const WEBHOOK_DELIVERIES = `query WebhookDeliveries($apiKeyId: ID, $after: String) {
  webhookDeliveries(apiKeyId: $apiKeyId, first: 20, after: $after) {
    edges { node {
      id eventId requestId test status attempts createdAt nextAttemptAt body
      attemptLog { generation attempt outcome statusCode error latencyMs attemptedAt }
    } }
    pageInfo { hasNextPage endCursor }
  }
}`;

const REQUEST_ROW = `id status createdAt originChainId destinationChainId user recipient referrer failReason
  route { actual {
    origin { inputCurrency { amountFormatted amountUsd currency { symbol } } outputCurrency { amountFormatted currency { symbol } } }
    destination { outputCurrency { amountFormatted currency { symbol } } }
  } }
  deposits { txHash } fills { txHash }`;

export const INTEGRATOR_REQUESTS = `query IntegratorRequests($filter: RequestFilterInput, $first: Int, $after: String) {
  requests(filter: $filter, first: $first, after: $after, includeTotal: true) {
    edges { node { ${REQUEST_ROW} } }
    pageInfo { hasNextPage endCursor }
    totalCount
  }
}`;

/** Every status change of the integrator's requests (a new one arrives as its `waiting`), each with its row. */
export const INTEGRATOR_REQUEST_UPDATED = `subscription IntegratorRequestUpdated {
  requestUpdated(myIntegrator: true) { eventId request { ${REQUEST_ROW} } }
}`;

const STATS_FIELDS = `count volumeUsd successes finished successRate fillSecondsP50 fillSecondsP95`;

export const STATS_TOTAL = `query StatsTotal($filter: RequestFilterInput, $from: DateTime!, $to: DateTime!) {
  requestStats(filter: $filter, from: $from, to: $to) { ${STATS_FIELDS} }
}`;

export const STATS_OVER_TIME = `query StatsOverTime($filter: RequestFilterInput, $from: DateTime!, $to: DateTime!, $groupBy: [RequestStatsGroup!]) {
  requestStats(filter: $filter, from: $from, to: $to, groupBy: $groupBy) { day hour ${STATS_FIELDS} }
}`;

export const STATS_BY_ROUTE = `query StatsByRoute($filter: RequestFilterInput, $from: DateTime!, $to: DateTime!) {
  requestStats(filter: $filter, from: $from, to: $to, groupBy: [ORIGIN_CHAIN, DESTINATION_CHAIN]) {
    originChainId destinationChainId ${STATS_FIELDS}
  }
}`;

export const STATS_BY_FAIL_REASON = `query StatsByFailReason($filter: RequestFilterInput, $from: DateTime!, $to: DateTime!) {
  requestStats(filter: $filter, from: $from, to: $to, groupBy: [FAIL_REASON]) { failReason count }
}`;
