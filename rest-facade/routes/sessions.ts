import { z } from 'zod';
import { sessionCookie } from '../../gateway/request-state.ts';
import { magicLinkInput, passwordSignInInput, setPasswordInput } from '../../subgraphs/team/index.ts';
import { sessionCookies } from '../../runtime/session-cookies.ts';
import type { GraphQLRoute } from '../route.ts';
import { invalidBodyResponse, unauthorizedResponse } from '../route-responses.ts';

export const sessionSchema = z
  .object({
    user: z.object({ id: z.string().meta({ example: 'usr_01jd8x3m5c2v7q9r4t6w8y0z1a' }), email: z.string(), name: z.string() }),
    workspaceId: z.string(),
    expiresAt: z.iso.datetime(),
  })
  .meta({ id: 'Session' });

/** What a sign-in operation selects of the `SignedInSession` it answers. */
export const signedInFields = 'token csrfToken expiresAt secureCookies user { id email name } workspaceId';

export interface SignedIn {
  token: string;
  csrfToken: string;
  expiresAt: string;
  secureCookies: boolean;
  user: { id: string; email: string; name: string };
  workspaceId: string;
}

const cookieSession = (headers: Headers) => sessionCookie({ request: { headers } as Request }) ?? '';

/** A new session as the answer: its two cookies set, the session described in the body (with `extra` fields beside). */
export function signedInResult(signedIn: SignedIn, extra: Record<string, unknown> = {}) {
  return {
    status: 200,
    headers: {
      'set-cookie': sessionCookies(
        { session: signedIn.token, csrf: signedIn.csrfToken },
        { expires: `Expires=${new Date(signedIn.expiresAt).toUTCString()}`, secure: signedIn.secureCookies },
      ),
      // A new session's cookies are the caller's alone: no cache on the way keeps the answer (the link's is a GET).
      'cache-control': 'no-store',
    },
    body: { ...extra, user: signedIn.user, workspaceId: signedIn.workspaceId, expiresAt: signedIn.expiresAt },
  };
}

export const sessionRoutes: GraphQLRoute[] = [
  {
    method: 'POST',
    path: '/v1/auth/password',
    operationId: 'signInWithPassword',
    summary: 'Signs in with an e-mail address and password; sets the `earshot_session` and `earshot_csrf` cookies',
    tag: 'Sign-in',
    public: true,
    body: passwordSignInInput,
    responses: {
      200: { description: 'Signed in; the cookies are set', schema: sessionSchema },
      400: invalidBodyResponse,
      401: { description: 'Wrong e-mail address or password, or no membership in that workspace (`unauthorized`)' },
      429: {
        description: '10 failed sign-ins for this account from this client address, 100 for this account from anywhere, or 30 from this client address, within 15 minutes (`rate_limited`, with `Retry-After`); even a right password waits',
      },
    },
    operation: `mutation SignInWithPassword($input: PasswordSignInInput!) {
      signInWithPassword(input: $input) { ${signedInFields} }
    }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => signedInResult(data.signInWithPassword),
  },
  {
    method: 'POST',
    path: '/v1/auth/magic-link',
    operationId: 'sendMagicLink',
    summary: 'E-mails a single-use sign-in link, valid 15 minutes, to the address if a user has it',
    tag: 'Sign-in',
    public: true,
    body: magicLinkInput,
    responses: {
      202: { description: 'Accepted; the same answer whether or not a user has the address', schema: z.object({ sent: z.literal(true) }).meta({ id: 'MagicLinkSent' }) },
      400: { description: `${invalidBodyResponse.description}; a mail server refusing the address outright is \`validation_error\` on \`email\`` },
      429: { description: '5 links asked for one address, or 20 from one client address, within 15 minutes (`rate_limited`, with `Retry-After`)' },
      501: { description: 'E-mail is not configured on this install (`email_not_configured`)' },
      502: { description: 'The mail server could not be reached or refused for now (`upstream_unavailable`)' },
    },
    operation: `mutation SendMagicLink($input: MagicLinkInput!) { sendMagicLink(input: $input) }`,
    variables: ({ body }) => ({ input: body }),
    result: () => ({ status: 202, body: { sent: true } }),
  },
  {
    method: 'GET',
    path: '/v1/auth/magic-link/verify',
    operationId: 'verifyMagicLink',
    summary: "Spends the token of an e-mailed link (the dashboard's `/sign-in/link` page calls it): signs in and sets the cookies, as the password sign-in does",
    tag: 'Sign-in',
    public: true,
    query: z.object({ token: z.string().min(1).max(200) }),
    responses: {
      200: { description: 'Signed in; the cookies are set', schema: sessionSchema },
      400: { description: '`token` is missing (`validation_error`)' },
      401: { description: 'The link is unknown, used or older than 15 minutes (`invalid_token`)' },
    },
    operation: `mutation SignInWithMagicLink($token: String!) {
      signInWithMagicLink(token: $token) { ${signedInFields} }
    }`,
    variables: ({ query }) => ({ token: query.token }),
    result: (data) => signedInResult(data.signInWithMagicLink),
  },
  {
    method: 'PUT',
    path: '/v1/auth/password',
    operationId: 'setPassword',
    credentials: 'person',
    summary: "Sets the signed-in user's password (needs `currentPassword` when there is one, and `X-CSRF-Token`); the user's other sessions end, this one stays",
    tag: 'Sign-in',
    body: setPasswordInput,
    responses: {
      204: { description: 'Set' },
      400: { description: 'A field breaks its rule, or `currentPassword` is wrong (`validation_error`, with `field`)' },
      401: unauthorizedResponse,
      403: { description: 'An API key, or a cookie without a matching `X-CSRF-Token` (`forbidden`)' },
      429: { description: 'Too many wrong passwords for this account or from this client address (`rate_limited`, with `Retry-After`)' },
    },
    operation: `mutation SetPassword($input: SetPasswordInput!) { setPassword(input: $input) }`,
    variables: ({ body }) => ({ input: body }),
    result: () => ({ status: 204 }),
  },
  {
    method: 'POST',
    path: '/v1/auth/switch-workspace',
    operationId: 'switchWorkspace',
    credentials: 'session',
    summary: "Moves the signed-in user to another of their workspaces: new cookies for it, the current session ended (needs `X-CSRF-Token`)",
    tag: 'Sign-in',
    body: z.strictObject({ workspaceId: z.string().min(1).max(100) }),
    responses: {
      200: { description: 'Switched; the cookies are set for the other workspace', schema: sessionSchema },
      400: invalidBodyResponse,
      401: unauthorizedResponse,
      403: { description: 'No `X-CSRF-Token` matching the `earshot_csrf` cookie, or not a session (`forbidden`)' },
      404: { description: 'The user is not a member of that workspace (`not_found`)' },
    },
    operation: `mutation SwitchWorkspace($sessionToken: String!, $workspaceId: ID!) {
      switchWorkspace(sessionToken: $sessionToken, workspaceId: $workspaceId) { token csrfToken expiresAt secureCookies user { id email name } workspaceId }
    }`,
    variables: ({ headers, body }) => ({ sessionToken: cookieSession(headers), workspaceId: (body as { workspaceId: string }).workspaceId }),
    result: (data) => signedInResult(data.switchWorkspace),
  },
  {
    method: 'POST',
    path: '/v1/auth/sign-out',
    operationId: 'signOut',
    credentials: 'session',
    summary: 'Ends the session of the cookie at once and clears the cookies (needs `X-CSRF-Token`)',
    tag: 'Sign-in',
    responses: {
      204: { description: 'Signed out' },
      401: unauthorizedResponse,
      403: { description: 'No `X-CSRF-Token` matching the `earshot_csrf` cookie, or not a session (`forbidden`)' },
    },
    operation: `mutation SignOut($sessionToken: String!) { signOut(sessionToken: $sessionToken) { secureCookies } }`,
    variables: ({ headers }) => ({ sessionToken: cookieSession(headers) }),
    result: (data) => ({
      status: 204,
      // With the attributes that set them (Secure over https), so every browser takes them as the same cookies.
      headers: { 'set-cookie': sessionCookies({ session: '', csrf: '' }, { expires: 'Max-Age=0', secure: data.signOut.secureCookies }) },
    }),
  },
];
