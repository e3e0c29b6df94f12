import { escapeHtml } from '../subgraphs/team/index.ts';

/**
 * The few pages a person sees while an application asks for access: the
 * sign-in form, the consent form and a message page. Plain server-rendered
 * HTML without scripts: labelled fields, a legend for the choice of access,
 * errors announced to screen readers, and a style that follows the
 * system's light or dark setting.
 */

const style = `
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5; }
  body { max-width: 32rem; margin: 3rem auto; padding: 0 1rem; }
  h1 { font-size: 1.5rem; }
  label, legend { display: block; font-weight: 600; margin-top: 1rem; }
  input[type=email], input[type=password], select { display: block; width: 100%; box-sizing: border-box; padding: .5rem; font: inherit; }
  fieldset { border: 1px solid; border-radius: .5rem; margin-top: 1rem; }
  fieldset label { font-weight: normal; margin-top: .5rem; }
  button { font: inherit; padding: .5rem 1.25rem; margin: 1.25rem .5rem 0 0; cursor: pointer; }
  :focus-visible { outline: 3px solid Highlight; outline-offset: 2px; }
  .error { border-left: 4px solid #c00; padding: .25rem .75rem; }
  .note { font-size: .9rem; }
`;

/** A whole page; `title` is also its only heading. */
function page(title: string, body: string): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)} · Earshot</title><style>${style}</style></head>`,
    `<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body>`,
    '</html>',
  ].join('\n');
}

const hiddenFields = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');

const errorNotice = (error: string | undefined) => (error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : '');

/** Where the forms post: the issuer's path (`''` at the root), as a proxy's prefix, then the endpoint's. */
interface FormsBase {
  basePath: string;
}

export interface SignInPage extends FormsBase {
  clientName: string;
  /** The authorization request to come back to after signing in, as a query string. */
  authorize: string;
  csrf: string;
  error?: string;
  email?: string;
  /** Whether e-mailed sign-in links work on this install. */
  magicLinks: boolean;
}

export function signInPage(view: SignInPage): string {
  const hidden = hiddenFields({ authorize: view.authorize, csrf: view.csrf });
  const email = escapeHtml(view.email ?? '');
  const passwordForm = `
    <form method="post" action="${escapeHtml(view.basePath)}/oauth/sign-in">${hidden}
      <label for="email">E-mail address</label>
      <input id="email" name="email" type="email" autocomplete="username" required value="${email}">
      <label for="password">Password</label>
      <input id="password" name="password" type="password" autocomplete="current-password" required>
      <button type="submit">Sign in</button>
    </form>`;
  const magicLinkForm = view.magicLinks
    ? `
    <form method="post" action="${escapeHtml(view.basePath)}/oauth/magic-link">${hidden}
      <h2>Or get a sign-in link by e-mail</h2>
      <label for="link-email">E-mail address</label>
      <input id="link-email" name="email" type="email" autocomplete="email" required value="${email}">
      <button type="submit">E-mail me a link</button>
    </form>`
    : '';
  return page(
    'Sign in to Earshot',
    `<p>${escapeHtml(view.clientName)} asks for access to Earshot. Sign in first; you choose what it may do next.</p>${errorNotice(view.error)}${passwordForm}${magicLinkForm}`,
  );
}

export interface ConsentPage extends FormsBase {
  clientName: string;
  /** Where the browser goes after the answer: the host of the redirect URI, for the person to recognise. */
  redirectTo: string;
  userEmail: string;
  workspaces: { id: string; name: string }[];
  /** The scopes the application asked for that the person may grant; the first is chosen unless `chosen` says otherwise. */
  scopes: ('write' | 'read')[];
  chosen?: { workspaceId?: string; scope?: string };
  /** The authorization request's own parameters, sent back with the answer. */
  request: Record<string, string>;
  csrf: string;
  error?: string;
}

const scopeLabels = {
  read: 'Read only: see mentions, keywords, alerts, channels and billing',
  write: 'Read and change: also triage mentions, edit keywords and send test alerts',
};

export function consentPage(view: ConsentPage): string {
  const chosenScope = view.chosen?.scope && view.scopes.includes(view.chosen.scope as 'read') ? view.chosen.scope : view.scopes[0];
  const workspaceOptions = view.workspaces
    .map((workspace) => `<option value="${escapeHtml(workspace.id)}"${workspace.id === view.chosen?.workspaceId ? ' selected' : ''}>${escapeHtml(workspace.name)}</option>`)
    .join('');
  const scopeChoices = view.scopes
    .map(
      (scope) =>
        `<label><input type="radio" name="grant_scope" value="${scope}"${scope === chosenScope ? ' checked' : ''}> ${escapeHtml(scopeLabels[scope])}</label>`,
    )
    .join('');
  return page(
    `Allow ${view.clientName} to use Earshot?`,
    `<p>Signed in as <strong>${escapeHtml(view.userEmail)}</strong>. The application will act as you on the workspace you choose, until you disconnect it.</p>
    <p class="note">The name is the application's own; Earshot has not checked it. After you answer, your browser goes to <strong>${escapeHtml(view.redirectTo)}</strong>.</p>
    ${errorNotice(view.error)}
    <form method="post" action="${escapeHtml(view.basePath)}/oauth/authorize">${hiddenFields({ ...view.request, csrf: view.csrf })}
      <label for="workspace">Workspace</label>
      <select id="workspace" name="workspace" required>${workspaceOptions}</select>
      <fieldset><legend>Access</legend>${scopeChoices}</fieldset>
      <button type="submit" name="decision" value="allow">Allow</button>
      <button type="submit" name="decision" value="deny">Deny</button>
    </form>`,
  );
}

/** A page that only tells something: the link was sent, the form expired, the link no longer works. */
export function messagePage(title: string, message: string): string {
  return page(title, `<p role="status">${escapeHtml(message)}</p>`);
}
