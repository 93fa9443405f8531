import { useEffect, useRef, useState } from "preact/hooks";

/**
 * The explorer's search, on every page: a request id, transaction hash, wallet or deposit address; Enter opens
 * `#/search/<term>` (a single match opens its request). The box shows the term searched for.
 */
export function SearchBox({ term }: { term?: string }) {
  const [input, setInput] = useState(term ?? "");
  // The box follows a new term (back, forward, a link), never its first render: that would wipe what a fast
  // typist entered before the effect ran.
  const shownTerm = useRef(term);
  useEffect(() => {
    if (shownTerm.current === term) return;
    shownTerm.current = term;
    setInput(term ?? "");
  }, [term]);
  const submit = (event: Event) => {
    event.preventDefault();
    const value = input.trim();
    if (value) location.hash = `#/search/${encodeURIComponent(value)}`;
  };
  return (
    <form role="search" onSubmit={submit} class="search">
      <label for="term" class="visually-hidden">
        Search requests
      </label>
      <input
        id="term"
        type="search"
        value={input}
        onInput={(event) => setInput((event.target as HTMLInputElement).value)}
        placeholder="Request id, transaction hash, wallet or deposit address"
        autocomplete="off"
        spellcheck={false}
      />
      <button type="submit">Search</button>
    </form>
  );
}
