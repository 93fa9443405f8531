import { useEffect, useState } from "preact/hooks";
import { RequestPage } from "./RequestPage";
import { SearchPage } from "./SearchPage";

/** The explorer's pages by location hash: `#/request/<id>`, `#/search/<term>`, the first screen otherwise. */
export function App() {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const follow = () => setHash(location.hash);
    addEventListener("hashchange", follow);
    return () => removeEventListener("hashchange", follow);
  }, []);
  const [, page, argument] = /^#\/(request|search)\/(.+)$/.exec(hash) ?? [];
  return (
    <>
      <header>
        <a href="#/" class="brand">
          Crossfill explorer
        </a>
      </header>
      {page === "request" ? (
        <RequestPage id={decodeURIComponent(argument)} />
      ) : (
        <SearchPage term={page === "search" ? decodeURIComponent(argument) : undefined} />
      )}
    </>
  );
}
