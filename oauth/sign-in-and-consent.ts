import { randomBytes } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import { AccessDeniedError, InvalidRequestError, InvalidScopeError, InvalidTargetError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthorizationParams } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import { clientAddressHeader } from '../runtime/client-address.ts';
import type { Clock } from '../runtime/clock.ts';
import type { Sql } from '../runtime/database.ts';
import { sameSecret } from '../runtime/same-secret.ts';
import { cookieValue, sessionCookieName, sessionCookies } from '../runtime/session-cookies.ts';
import {
  authenticateSession,
  findOAuthClient,
  findUser,
  issueAuthorizationCode,
  mailMagicLink,
  mailSettings,
  type OAuthScope,
  requestedScope,
  signInWithMagicLink,
  signInWithPassword,
  workspacesOfUser,
} from '../subgraphs/team/index.ts';
import { isOwnResource, oauthPaths } from './metadata.ts';
import { consentPage, messagePage, signInPage } from './pages.ts';

export interface BrowserStepsOptions {
  sql: Sql;
  env: NodeJS.ProcessEnv;
  clock: Clock;
  /** `EARSHOT_PUBLIC_URL`: the issuer, and the base of every link and redirect. */
  issuer: string;
}

/** The parameters of an authorization request (OAuth 2.1 4.1.1, RFC 8707), the only ones carried through sign-in and consent. */
const authorizationParameters = ['client_id', 'redirect_uri', 'response_type', 'code_challenge', 'code_challenge_method', 'scope', 'state', 'resource'];

/** The authorization request's own parameters out of a query or a form, leaving out anything else. */
function authorizationRequest(source: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    authorizationParameters.flatMap((name) => (typeof source[name] === 'string' ? [[name, source[name] as string]] : [])),
  );
}

/**
 * The double-submit cookie of the sign-in forms: nobody is signed in yet, so
 * no session can anchor their CSRF token. A page of another site can neither
 * read this cookie nor make a browser send it (SameSite=Lax).
 */
const signInCsrfCookie = 'earshot_oauth_csrf';

/** A form field against the secret it must repeat: a missing field or a missing secret never matches. */
function sameFormSecret(given: unknown, expected: string | undefined): boolean {
  return typeof given === 'string' && !!expected && sameSecret(given, expected);
}

/** The code of a domain error (`extensions.code`), for the pages to word it. */
const domainCode = (error: unknown) => (error as { extensions?: { code?: unknown } }).extensions?.code;

/** No framing (clickjacking a consent), no scripts, no referrer carrying the request's parameters away. */
function sendPage(res: Response, status: number, html: string): void {
  res
    .status(status)
    .set({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
    })
    .send(html);
}

/**
 * What a person does in the browser during an authorization request: sign
 * in with the dashboard's session (password or e-mailed link) when not
 * signed in, then choose a workspace and the access at the consent page.
 * `authorize` is the provider's step once the MCP SDK's handler has checked
 * the client, the redirect URI and PKCE; `routes` serves the sign-in forms.
 */
export function createBrowserSteps(options: BrowserStepsOptions) {
  const { sql, env, clock, issuer } = options;
  const secureCookies = issuer.startsWith('https:');
  // An issuer with a path is Earshot behind a proxy's prefix: the browser reaches the forms, and sends their cookie, under it.
  const basePath = new URL(issuer).pathname.replace(/\/$/, '');
  // The public server wrote the socket's address into this header, over whatever the client sent.
  const signInContext = (req: Request) => ({ sql, env, clientAddress: req.get(clientAddressHeader) || null });

  const continueAuthorizing = (res: Response, request: Record<string, string>) =>
    res.redirect(303, `${issuer}${oauthPaths.authorize}?${new URLSearchParams(request)}`);

  const clientNameOf = async (clientId: string | undefined) =>
    (clientId && (await findOAuthClient(sql, clientId))?.name) || 'An application';

  const showSignIn = (req: Request, res: Response, view: { clientName: string; request: Record<string, string>; status?: number; error?: string; email?: string }) => {
    let csrf = cookieValue(req.headers.cookie, signInCsrfCookie);
    if (!csrf) {
      csrf = randomBytes(32).toString('base64url');
      res.append('set-cookie', `${signInCsrfCookie}=${csrf}; HttpOnly; Path=${basePath}/oauth; SameSite=Lax${secureCookies ? '; Secure' : ''}`);
    }
    sendPage(
      res,
      view.status ?? 200,
      signInPage({
        basePath,
        clientName: view.clientName,
        authorize: new URLSearchParams(view.request).toString(),
        csrf,
        error: view.error,
        email: view.email,
        magicLinks: mailSettings(env) !== null,
      }),
    );
  };

  async function authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    // RFC 7636 4.2: an S256 challenge is the base64url SHA-256 of the verifier, 43 characters.
    if (!/^[\w-]{43}$/.test(params.codeChallenge)) throw new InvalidRequestError('code_challenge must be the base64url SHA-256 of the code_verifier');
    const scope = requestedScope(params.scopes ?? []);
    if (!scope) throw new InvalidScopeError('Earshot knows two scopes: read and write');
    if (params.resource && !isOwnResource(issuer, params.resource)) throw new InvalidTargetError(`The resource must be ${issuer} or a path under it`);
    const req = res.req;
    const form: Record<string, unknown> = req.method === 'POST' ? (req.body ?? {}) : {};
    const request = authorizationRequest(req.method === 'POST' ? form : (req.query as Record<string, unknown>));
    const clientName = client.client_name || 'An application';
    const sessionToken = cookieValue(req.headers.cookie, sessionCookieName);
    const session = sessionToken ? await authenticateSession(sql, sessionToken) : undefined;
    if (!session) return showSignIn(req, res, { clientName, request });

    const offered: OAuthScope[] = scope === 'write' ? ['write', 'read'] : ['read'];
    const workspaces = await workspacesOfUser(sql, session.userId);
    const user = await findUser(sql, session.userId);
    const consent = (status = 200, error?: string) =>
      sendPage(
        res,
        status,
        consentPage({
          basePath,
          clientName,
          redirectTo: new URL(params.redirectUri).host || params.redirectUri,
          userEmail: user?.email ?? '',
          workspaces,
          scopes: offered,
          chosen: { workspaceId: typeof form.workspace === 'string' ? form.workspace : session.workspaceId, scope: form.grant_scope as string | undefined },
          request,
          csrf: session.csrfToken,
          error,
        }),
      );
    if (form.decision === undefined) return consent();
    if (!sameFormSecret(form.csrf, session.csrfToken)) {
      return sendPage(res, 403, messagePage('This form has expired', 'Nothing was allowed. Start again from the application.'));
    }
    if (form.decision !== 'allow') throw new AccessDeniedError('The user denied the request');
    const workspace = workspaces.find((each) => each.id === form.workspace);
    const granted = offered.find((each) => each === form.grant_scope);
    if (!workspace || !granted) return consent(400, 'Choose one of your workspaces and one kind of access.');

    const code = await issueAuthorizationCode(
      sql,
      {
        clientId: client.client_id,
        userId: session.userId,
        workspaceId: workspace.id,
        scope: granted,
        redirectUri: params.redirectUri,
        redirectUriNamed: request.redirect_uri !== undefined,
        codeChallenge: params.codeChallenge,
        resource: params.resource?.href ?? null,
      },
      clock.now(),
    );
    const target = new URL(params.redirectUri);
    target.searchParams.set('code', code);
    if (params.state !== undefined) target.searchParams.set('state', params.state);
    // RFC 9207: the client can tell which server answered.
    target.searchParams.set('iss', issuer);
    res.redirect(302, target.href);
  }

  const setSession = (res: Response, session: { token: string; csrfToken: string; expiresAt: Date; secureCookies: boolean }) => {
    for (const cookie of sessionCookies(
      { session: session.token, csrf: session.csrfToken },
      { expires: `Expires=${session.expiresAt.toUTCString()}`, secure: session.secureCookies },
    )) {
      res.append('set-cookie', cookie);
    }
  };

  /** A sign-in form's fields and the request it continues, or a refusal when its CSRF token is not the cookie's. */
  const readSignInForm = (req: Request, res: Response) => {
    const form: Record<string, unknown> = req.body ?? {};
    const request = authorizationRequest(Object.fromEntries(new URLSearchParams(typeof form.authorize === 'string' ? form.authorize : '')));
    if (!sameFormSecret(form.csrf, cookieValue(req.headers.cookie, signInCsrfCookie))) {
      sendPage(res, 403, messagePage('This form has expired', 'Start again from the application.'));
      return undefined;
    }
    return { email: typeof form.email === 'string' ? form.email : '', password: typeof form.password === 'string' ? form.password : '', request };
  };

  const routes: Router = express.Router();
  routes.use(express.urlencoded({ extended: false, limit: '16kb' }));

  routes.post(oauthPaths.signIn, async (req, res) => {
    const form = readSignInForm(req, res);
    if (!form) return;
    try {
      setSession(res, await signInWithPassword(signInContext(req), { email: form.email, password: form.password }));
      continueAuthorizing(res, form.request);
    } catch (error) {
      const code = domainCode(error);
      const status = { unauthorized: 401, validation_error: 400, rate_limited: 429 }[code as string];
      if (!status) throw error;
      if (code === 'rate_limited') res.set('retry-after', String((error as { extensions: { retryAfterSeconds: number } }).extensions.retryAfterSeconds));
      showSignIn(req, res, { clientName: await clientNameOf(form.request.client_id), request: form.request, status, error: (error as Error).message, email: form.email });
    }
  });

  routes.post(oauthPaths.magicLink, async (req, res) => {
    const form = readSignInForm(req, res);
    if (!form) return;
    const link = (token: string) => `${issuer}${oauthPaths.magicLink}?${new URLSearchParams({ token, authorize: new URLSearchParams(form.request).toString() })}`;
    try {
      await mailMagicLink(signInContext(req), { email: form.email }, link);
    } catch (error) {
      const code = domainCode(error);
      if (code === 'email_not_configured') return sendPage(res, 501, messagePage('E-mail is not set up', 'This install cannot send sign-in links; sign in with your password.'));
      const status = { validation_error: 400, rate_limited: 429 }[code as string];
      if (!status) throw error;
      if (code === 'rate_limited') res.set('retry-after', String((error as { extensions: { retryAfterSeconds: number } }).extensions.retryAfterSeconds));
      return showSignIn(req, res, { clientName: await clientNameOf(form.request.client_id), request: form.request, status, error: (error as Error).message, email: form.email });
    }
    sendPage(res, 200, messagePage('Check your e-mail', `If ${form.email} has an Earshot account, a sign-in link is on its way. It works once, for 15 minutes, and brings you back here.`));
  });

  routes.get(oauthPaths.magicLink, async (req, res) => {
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    const request = authorizationRequest(Object.fromEntries(new URLSearchParams(typeof req.query.authorize === 'string' ? req.query.authorize : '')));
    try {
      setSession(res, await signInWithMagicLink(signInContext(req), token));
    } catch (error) {
      if (domainCode(error) !== 'invalid_token') throw error;
      return sendPage(res, 401, messagePage('This link no longer works', 'Sign-in links work once, for 15 minutes. Start again from the application.'));
    }
    continueAuthorizing(res, request);
  });

  return { authorize, routes };
}
