/** The shapes of the answers to dashboardQueries.ts. */
export type Webhook = { url: string; enabled: boolean; headerNames: string[]; disabledReason: string | null };

export type ApiKey = {
  id: string;
  name: string | null;
  integrator: string;
  elevated: boolean;
  managesKeys: boolean;
  current: boolean;
  createdAt: string;
  revokedAt: string | null;
  webhook: Webhook | null;
};

export type WebhookAttempt = {
  generation: number;
  attempt: number;
  outcome: string;
  statusCode: number | null;
  error: string | null;
  latencyMs: number | null;
  attemptedAt: string;
};

export type WebhookDelivery = {
  id: string;
  eventId: string;
  requestId: string;
  test: boolean;
  status: string;
  attempts: number;
  createdAt: string;
  nextAttemptAt: string | null;
  /** The body posted: a status change's carries the status it moved to. */
  body: { event: string; data?: { status?: string } };
  attemptLog: WebhookAttempt[];
};

type Amount = { amountFormatted: string; amountUsd?: string; currency: { symbol: string } };

export type IntegratorRequest = {
  id: string;
  status: string;
  createdAt: string;
  originChainId: number;
  destinationChainId: number;
  user: string;
  recipient: string;
  referrer: string | null;
  failReason: string | null;
  route: {
    actual: {
      origin: { inputCurrency: Amount | null; outputCurrency: Amount | null };
      destination: { outputCurrency: Amount | null } | null;
    };
  };
  deposits: { txHash: string }[];
  fills: { txHash: string }[];
};

export type StatsBucket = {
  day?: string | null;
  hour?: string | null;
  originChainId?: number | null;
  destinationChainId?: number | null;
  failReason?: string | null;
  count: number;
  volumeUsd: string;
  successes: number;
  finished: number;
  successRate: string | null;
  fillSecondsP50: number | null;
  fillSecondsP95: number | null;
};
