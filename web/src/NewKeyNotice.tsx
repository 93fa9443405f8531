import { useEffect, useRef, useState } from "preact/hooks";

/** A key just created: shown this once (the API keeps only its hash), with a copy button; focus lands on it. */
export function NewKeyNotice({ name, secret, onDone }: { name: string; secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState<string | undefined>();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied("Copied to the clipboard.");
    } catch {
      setCopied("The browser refused the clipboard: select the key and copy it by hand.");
    }
  };
  return (
    <div class="notice" role="region" aria-labelledby="new-key-title">
      <h2 id="new-key-title" tabIndex={-1} ref={heading}>
        New key “{name}”
      </h2>
      <p>Copy it now: it is shown this once and cannot be read back.</p>
      <output class="hash secret" aria-label="The new API key">
        {secret}
      </output>
      <div class="actions">
        <button type="button" onClick={copy}>
          Copy key
        </button>
        <button type="button" onClick={onDone}>
          I have stored it
        </button>
      </div>
      {copied && <p role="status">{copied}</p>}
    </div>
  );
}
