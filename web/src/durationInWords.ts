/** A duration as people say it: "0.4 s", "1.1 s", "42 s", "3 min 5 s", "2 h 10 min", "3 d 4 h". */
export function durationInWords(milliseconds: number): string {
  const ms = Math.max(0, milliseconds);
  if (ms < 10_000) return `${(Math.round(ms / 100) / 10).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const [big, small, bigUnit, smallUnit] =
    seconds < 3600
      ? [Math.floor(seconds / 60), seconds % 60, "min", "s"]
      : seconds < 86_400
        ? [Math.floor(seconds / 3600), Math.floor(seconds / 60) % 60, "h", "min"]
        : [Math.floor(seconds / 86_400), Math.floor(seconds / 3600) % 24, "d", "h"];
  return small ? `${big} ${bigUnit} ${small} ${smallUnit}` : `${big} ${bigUnit}`;
}
