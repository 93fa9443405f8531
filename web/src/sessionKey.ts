const NAME = "crossfill.dashboard.apiKey";
const CHANGED = "crossfill:session-key";

/**
 * The dashboard's API key, kept for this browser tab's session only (sessionStorage), never in localStorage; pages
 * follow its changes (a sign-out, or a key the API stopped accepting) with `watch`.
 */
export const sessionKey = {
  get: (): string | null => sessionStorage.getItem(NAME),
  set: (key: string) => {
    sessionStorage.setItem(NAME, key);
    dispatchEvent(new Event(CHANGED));
  },
  clear: () => {
    sessionStorage.removeItem(NAME);
    dispatchEvent(new Event(CHANGED));
  },
  watch: (listener: () => void): (() => void) => {
    addEventListener(CHANGED, listener);
    return () => removeEventListener(CHANGED, listener);
  },
};
