import pino, { type DestinationStream, type Logger, stdSerializers } from "pino";

const CENSOR = "[redacted]";

// scheme://[userinfo@]host[:port] and whatever path, query or fragment follows, up to white space or a quote.
const URL_PATTERN = /\b([a-z][a-z0-9+.-]*:\/\/)(?:[^\s/?#@"'<>]*@)?([^\s/?#"'<>]+)([^\s"'<>]*)/gi;

/**
 * A text with each URL cut to its scheme, host and port: RPC providers put their key in the path, the query or the
 * credentials (https://node.example/v2/KEY), and viem errors quote the URL they called in their message.
 */
export function scrubUrls(text: string): string {
  return text.replace(URL_PATTERN, (_, scheme: string, host: string, rest: string) =>
    rest === "" || rest === "/" ? `${scheme}${host}${rest}` : `${scheme}${host}/${CENSOR}`,
  );
}

const MAX_DEPTH = 12;

/** `value` with every string in it scrubbed and every error serialized (message, cause, fields), not changed. */
function scrubValue(value: unknown, depth: number): unknown {
  if (typeof value === "string") return scrubUrls(value);
  if (value === null || typeof value !== "object") return value;
  if (depth > MAX_DEPTH) return "[too deep]";
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, depth + 1));
  const prototype = Object.getPrototypeOf(value);
  const plain = prototype === Object.prototype || prototype === null;
  // Errors, and instances that carry a message as errors do (a websocket's ErrorEvent), are serialized as pino
  // would (its record has a prototype of its own); other class instances (dates, buffers, …) keep their JSON form.
  const errorLike = value instanceof Error || (!plain && typeof (value as { message?: unknown }).message === "string");
  const record = errorLike ? stdSerializers.err(value as Error) : plain ? value : undefined;
  if (record === undefined) return value;
  return Object.fromEntries(Object.entries(record).map(([key, item]) => [key, scrubValue(item, depth + 1)]));
}

// Fields that hold an RPC URL or a secret are never logged, at whatever depth a record nests them (up to three).
const SECRET_FIELDS = ["rpcUrl", "wsUrl", "esploraUrl", "privateKey", "wif", "xprv", "serverKey", "secret", "password"];
const REDACT_PATHS = SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`, `*[*].${field}`]).concat([
  "headers.authorization",
  'headers["x-api-key"]',
  "*.headers.authorization",
  '*.headers["x-api-key"]',
]);

/**
 * Every process's logger. RPC URLs never reach a log line: fields that hold one (or a key) are redacted, and every
 * other string — the message, errors' messages and details, their causes — has its URLs cut to scheme and host.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    redact: { paths: REDACT_PATHS, censor: CENSOR },
    formatters: { log: (record) => scrubValue(record, 0) as Record<string, unknown> },
    serializers: {
      // After `log` above, errors are plain records already; one logged without a field name lands here as `err`.
      err: (error: unknown) => scrubValue(error, 0),
      msg: (message: unknown) => (typeof message === "string" ? scrubUrls(message) : message),
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
