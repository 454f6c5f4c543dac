// The console's shell: a skip link, the navigation, and the page the path
// names. Without a token, the sign-in page (the provider callback excepted).
import { useEffect, useRef, useState } from 'preact/hooks';
import { AccessPage } from './pages/access-page.js';
import { AdvisoriesPage } from './pages/advisories-page.js';
import { DigestPage } from './pages/digest-page.js';
import { EventsPage } from './pages/events-page.js';
import { GroupPage } from './pages/group-page.js';
import { GroupsPage } from './pages/groups-page.js';
import { RepoPage } from './pages/repo-page.js';
import { CALLBACK_PATH } from './provider-login.js';
import { navigate, useLocation } from './router.js';
import { currentToken, onTokenChange, setToken } from './session.js';
import { Callback, SignIn } from './sign-in.js';

const NAV = [
  { href: '/ui/', label: 'Organizations', match: (p: string) => p === '/ui/' || p.startsWith('/ui/groups') || p.startsWith('/ui/repos') },
  { href: '/ui/access', label: 'Access', match: (p: string) => p.startsWith('/ui/access') },
  { href: '/ui/events', label: 'Events', match: (p: string) => p.startsWith('/ui/events') },
  { href: '/ui/advisories', label: 'Advisories', match: (p: string) => p.startsWith('/ui/advisories') },
];

function Page({ path, query }: { path: string; query: URLSearchParams }) {
  const [scope, setScope] = useState('');
  let m = /^\/ui\/repos\/(.+)\/digests\/(sha\d+:[0-9a-f]+)$/.exec(path);
  if (m) return <DigestPage repo={m[1]} digest={m[2]} />;
  m = /^\/ui\/repos\/(.+)$/.exec(path);
  if (m) return <RepoPage uid={m[1]} />;
  m = /^\/ui\/groups\/(.+)$/.exec(path);
  if (m) return <GroupPage uid={m[1]} />;
  if (path === '/ui/access') return <AccessPage scope={query.get('group') ?? scope} setScope={setScope} />;
  m = /^\/ui\/events(?:\/(.+))?$/.exec(path);
  if (m) return <EventsPage selected={m[1] ?? ''} />;
  if (path === '/ui/advisories') return <AdvisoriesPage />;
  if (path === '/ui/' || path === '/ui') return <GroupsPage />;
  return (
    <section>
      <h1>Not found</h1>
      <p>
        The console has no page at {path}. <a href="/ui/">Organizations</a>
      </p>
    </section>
  );
}

export function App() {
  const { path, query } = useLocation();
  const [token, setLocal] = useState(currentToken());
  useEffect(() => onTokenChange(() => setLocal(currentToken())), []);
  useEffect(() => {
    if (path === '/') history.replaceState(null, '', '/ui/');
  }, [path]);
  const here = path === '/' ? '/ui/' : path;
  // After a route change (not on arrival) focus moves to the new page, as a page load would put it at the top.
  const arrived = useRef(false);
  useEffect(() => {
    if (arrived.current) document.querySelector('main')?.focus();
    arrived.current = true;
  }, [here]);
  return (
    <div class="shell">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header>
        <span class="brand">Berth</span>
        {token ? (
          <nav aria-label="Main">
            <ul>
              {NAV.map((n) => (
                <li key={n.href}>
                  <a href={n.href} aria-current={n.match(here) ? 'page' : undefined}>
                    {n.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        {token ? (
          <button
            type="button"
            class="sign-out"
            onClick={() => {
              setToken('');
              navigate('/ui/');
            }}
          >
            Sign out
          </button>
        ) : null}
      </header>
      <main id="main" tabIndex={-1}>
        {here === CALLBACK_PATH ? <Callback query={query} /> : token ? <Page path={here} query={query} /> : <SignIn />}
      </main>
    </div>
  );
}
