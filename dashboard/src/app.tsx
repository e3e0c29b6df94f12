import { useEffect, useRef, useState } from 'preact/hooks';
import { ErrorBoundary } from 'preact-iso/lazy';
import { LocationProvider, Route, Router, useLocation } from 'preact-iso/router';
import { ApiError, onSignedOut } from './api/api-error';
import { csrfToken, execute } from './api/graphql-client';
import { closeLiveUpdates } from './api/live-updates';
import { signOut, switchWorkspace } from './api/sign-in-routes';
import { EmailConfirmationPage } from './pages/links/email-confirmation-page';
import { SlackConnectedPage } from './pages/links/slack-connected-page';
import { InvitationPage } from './pages/sign-in/invitation-page';
import { MagicLinkPage } from './pages/sign-in/magic-link-page';
import { SignInPage } from './pages/sign-in/sign-in-page';
import { pageRoutes } from './routes';
import { SessionContext, type SessionInfo, ShellDocument } from './session';
import { ErrorNotice, Loading } from './ui/notice';

export function App() {
  return (
    <LocationProvider>
      <ErrorBoundary>
        <Root />
      </ErrorBoundary>
    </LocationProvider>
  );
}

/** `ended`: the session was over when a request found it so (expired, signed out elsewhere, the user removed), not signed out here. */
type SessionState = { state: 'checking' } | { state: 'signed-out'; ended?: boolean } | { state: 'failed'; error: unknown } | { state: 'signed-in'; session: SessionInfo };

function Root() {
  const { path, url, query, route } = useLocation();
  const [session, setSession] = useState<SessionState>({ state: 'checking' });

  const load = async () => {
    // No readable CSRF cookie means no session cookie either (both are set and cleared together).
    if (!csrfToken()) return setSession({ state: 'signed-out' });
    try {
      setSession({ state: 'signed-in', session: (await execute(ShellDocument)).whoami });
    } catch (error) {
      setSession(error instanceof ApiError && error.code === 'unauthorized' ? { state: 'signed-out', ended: true } : { state: 'failed', error });
    }
  };
  useEffect(() => {
    void load();
    return onSignedOut(() => {
      closeLiveUpdates();
      setSession({ state: 'signed-out', ended: true });
    });
  }, []);

  const publicPage = ['/sign-in', '/sign-in/link', '/invitation', '/confirm-email', '/slack/connected'].includes(path);
  useEffect(() => {
    if (session.state === 'signed-out' && !publicPage) route(`/sign-in${path === '/' ? '' : `?next=${encodeURIComponent(url)}`}`, true);
    if (session.state === 'signed-in' && path === '/') {
      // Stripe Checkout returns to `/?top_up=…&status=…` (the billing subgraph's return pages).
      route(query.top_up ? `/wallet?top_up=${encodeURIComponent(query.top_up)}&status=${encodeURIComponent(query.status ?? '')}` : '/inbox', true);
    }
  }, [session.state, path]);

  const signedIn = async () => {
    await load();
    const next = query.next && query.next.startsWith('/') && !query.next.startsWith('//') ? query.next : '/inbox';
    route(next, true);
  };

  if (path === '/sign-in') return <SignInPage onSignedIn={signedIn} sessionEnded={session.state === 'signed-out' && session.ended} />;
  if (path === '/sign-in/link') return <MagicLinkPage token={query.token ?? ''} onSignedIn={signedIn} />;
  if (path === '/invitation') return <InvitationPage token={query.token ?? ''} onAccepted={signedIn} />;
  // The links opened from an e-mail or from Slack (the REST routes' browser pages), which carry their own credential.
  if (path === '/confirm-email') return <EmailConfirmationPage token={query.token ?? ''} />;
  if (path === '/slack/connected') return <SlackConnectedPage query={query} />;
  if (session.state === 'checking' || session.state === 'signed-out') return <Loading label="Opening Earshot" />;
  if (session.state === 'failed') {
    return (
      <main class="centered">
        <ErrorNotice error={session.error} title="Earshot could not load" />
        <button type="button" onClick={() => void load()}>
          Try again
        </button>
      </main>
    );
  }
  return (
    <SessionContext.Provider value={session.session}>
      <Layout session={session.session} onSignedOut={() => setSession({ state: 'signed-out' })} />
    </SessionContext.Provider>
  );
}

function Layout({ session, onSignedOut }: { session: SessionInfo; onSignedOut(): void }) {
  const { path } = useLocation();
  const [error, setError] = useState<unknown>();
  const firstPath = useRef(path);
  // After a navigation (not the first load) focus moves to the new page's heading, so screen readers announce it.
  useEffect(() => {
    if (path === firstPath.current) return;
    firstPath.current = '';
    const timer = setTimeout(() => document.getElementById('page-title')?.focus(), 50);
    return () => clearTimeout(timer);
  }, [path]);

  const leave = async () => {
    try {
      await signOut();
    } catch (failure) {
      if (!(failure instanceof ApiError && failure.status === 401)) return setError(failure);
    }
    closeLiveUpdates();
    onSignedOut();
  };
  const switchTo = async (workspaceId: string) => {
    try {
      await switchWorkspace(workspaceId);
      closeLiveUpdates();
      location.assign('/inbox');
    } catch (failure) {
      setError(failure);
    }
  };

  return (
    <div class="layout">
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <a class="brand" href="/inbox">
          Earshot
        </a>
        {session.workspaces.length > 1 ? (
          <label class="workspace-switcher">
            <span class="visually-hidden">Workspace</span>
            <select value={session.workspace.id} onChange={(event) => void switchTo(event.currentTarget.value)}>
              {session.workspaces.map((workspace) => (
                <option key={workspace.id} value={workspace.id}>
                  {workspace.name}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <span class="workspace-name">{session.workspace.name}</span>
        )}
        <span class="user">{session.user?.email}</span>
        <button type="button" class="secondary" onClick={() => void leave()}>
          Sign out
        </button>
      </header>
      <nav class="sidebar" aria-label="Main">
        <ul>
          {pageRoutes
            .filter((page) => page.label)
            .map((page) => (
              <li key={page.path}>
                <a href={page.path} aria-current={path === page.path || path.startsWith(`${page.path}/`) ? 'page' : undefined}>
                  {page.label}
                </a>
              </li>
            ))}
        </ul>
      </nav>
      <main id="main" class="content">
        <ErrorNotice error={error} />
        <ErrorBoundary>
          <Router>
            {[
              ...pageRoutes.map((page) => <Route key={page.path} path={page.path} component={page.component} />),
              <Route key="not-found" default component={NotFound} />,
            ]}
          </Router>
        </ErrorBoundary>
      </main>
    </div>
  );
}

function NotFound() {
  return (
    <section>
      <h1 id="page-title" tabIndex={-1}>
        Page not found
      </h1>
      <p>
        <a href="/inbox">Go to the inbox</a>
      </p>
    </section>
  );
}
