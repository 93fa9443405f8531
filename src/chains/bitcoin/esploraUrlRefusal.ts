const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * Why an Esplora URL may not be used, or undefined: only https, but for a loopback host (the devnet's Esplora, a node
 * on the same machine). Over plain http anyone on the path could answer balances, deposits and fee rates of their own.
 */
export function esploraUrlRefusal(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "expected a URL";
  }
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:" && LOOPBACK.test(url.hostname)) return undefined;
  return `expected an https URL (plain http only on a loopback host, such as the devnet's): ${url.protocol}//${url.host}`;
}
