import { postGraphql } from "./postGraphql.js";
import { route } from "./route.js";

/** An exact-input native bridge quoted with an API key (createQuote), so its request is that key's; the quote. */
export async function quoteWithKey(
  apiUrl: string,
  apiKey: string,
  trip: {
    user: { address: string };
    recipient: { address: string };
    origin: { id: number };
    destination: { id: number };
    extra?: Record<string, unknown>;
  },
): Promise<{ requestId: string; steps: any[] }> {
  const quoted = await postGraphql(
    apiUrl,
    `mutation ($input: CreateQuoteInput!) { createQuote(input: $input) { requestId steps { id kind requestId items { status data } } } }`,
    {
      input: {
        user: trip.user.address,
        recipient: trip.recipient.address,
        ...route(trip.origin, trip.destination),
        amount: "100000000000000000",
        tradeType: "EXACT_INPUT",
        ...trip.extra,
      },
    },
    apiKey,
  );
  if (quoted.errors) throw new Error(`createQuote refused: ${JSON.stringify(quoted.errors)}`);
  return quoted.data.createQuote;
}
