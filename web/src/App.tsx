import { useEffect, useState } from "preact/hooks";
import { Dashboard } from "./Dashboard";
import { RequestPage } from "./RequestPage";
import { SearchBox } from "./SearchBox";
import { SearchPage } from "./SearchPage";

/**
 * The explorer's pages by location hash (`#/request/<id>`, `#/search/<term>`) or the same under /explorer/; the
 * first screen otherwise. The search box is in the header: on every page.
 */
export function App() {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const follow = () => setHash(location.hash);
    addEventListener("hashchange", follow);
    return () => removeEventListener("hashchange", follow);
  }, []);
  // A path such as /explorer/request/<id> (a link shared without the hash) opens the same page.
  const route = hash || location.pathname.replace(/^\/explorer/, "#");
  const [, page, argument] = /^#\/(request|search)\/(.+)$/.exec(route) ?? [];
  const dashboard = /^#\/dashboard(\/.*)?$/.exec(route);
  return (
    <>
      <header>
        <a href="#/" class="brand">
          Crossfill explorer
        </a>
        <a href="#/dashboard">Dashboard</a>
        <SearchBox term={page === "search" ? decodeURIComponent(argument) : undefined} />
      </header>
      {dashboard ? (
        <Dashboard path={dashboard[1] ?? ""} />
      ) : page === "request" ? (
        <RequestPage id={decodeURIComponent(argument)} />
      ) : (
        <SearchPage term={page === "search" ? decodeURIComponent(argument) : undefined} />
      )}
    </>
  );
}
