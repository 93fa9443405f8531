import { useEffect, useState } from "preact/hooks";

/**
 * Moves the keyboard focus to the element a selector names once a render shows it: for when the control a keyboard
 * user pressed goes away or something new appears (Revoke → its confirmation, Add header → the new row), so the
 * focus is not lost to the page. Returns the function that asks for it.
 */
export function useFocusAfterRender(): (selector: string) => void {
  const [pending, setPending] = useState<string | undefined>();
  useEffect(() => {
    if (!pending) return;
    const target = document.querySelector<HTMLElement>(pending);
    if (target) {
      target.focus();
      setPending(undefined);
    }
  });
  return setPending;
}
