import { useState } from "preact/hooks";

/** A button that copies `value` (an id, hash or address) to the clipboard and says so for a moment. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const copy = () =>
    navigator.clipboard.writeText(value).then(() => {
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    });
  return (
    <button type="button" class="copy" onClick={copy} aria-label={`Copy ${label}`} title={`Copy ${label}`}>
      {copied ? "Copied" : "Copy"}
    </button>
  );
}
