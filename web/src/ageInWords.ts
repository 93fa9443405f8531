/** How long ago a moment was, from `now`: "12 s ago", "3 min ago"; "just now" under a second. */
export function ageInWords(at: string, now: number): string {
  const elapsed = now - Date.parse(at);
  if (elapsed < 1000) return "just now";
  const seconds = Math.floor(elapsed / 1000);
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return `${Math.floor(seconds / 86_400)} d ago`;
}
