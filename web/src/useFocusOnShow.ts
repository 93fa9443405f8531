import { useCallback } from "preact/hooks";

/**
 * A ref callback for a page's heading (give it tabIndex -1): the heading is focused when it appears, once, so
 * keyboard and screen-reader users land on the page they opened rather than on the link that opened it. Stable, so
 * later renders (a log read again) never move the focus.
 */
export function useFocusOnShow<T extends HTMLElement>(): (element: T | null) => void {
  return useCallback((element: T | null) => element?.focus(), []);
}
