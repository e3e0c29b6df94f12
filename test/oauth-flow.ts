import { createHash, randomBytes } from 'node:crypto';

/**
 * An OAuth client's side of Earshot's authorization server, over HTTP only:
 * what an MCP client and its user's browser send, step by step.
 */

/** A PKCE pair (RFC 7636, S256). */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export const redirectUri = 'http://127.0.0.1:9/callback';

export async function registerClient(base: string, metadata: Record<string, unknown> = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(`${base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Test assistant', redirect_uris: [redirectUri], ...metadata }),
  });
  return { status: response.status, body: await response.json() };
}

/** The session cookies of a password sign-in, as a `Cookie` header. */
export async function signInCookie(base: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${base}/v1/auth/password`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  return cookieHeader(response.headers);
}

/** The cookies a response sets, as the `Cookie` header a browser would send back. */
export function cookieHeader(headers: Headers, previous = ''): string {
  const cookies = new Map(previous ? previous.split('; ').map((pair) => pair.split('=', 2) as [string, string]) : []);
  for (const cookie of headers.getSetCookie()) {
    const [pair] = cookie.split(';');
    const at = pair.indexOf('=');
    cookies.set(pair.slice(0, at), pair.slice(at + 1));
  }
  return [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
}

const htmlEntities: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const unescapeHtml = (text: string) => text.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => htmlEntities[entity]);

/** The hidden fields of the page's form (of the form posting to `action`, when given), as a browser would submit them. */
export function hiddenFields(html: string, action?: string): Record<string, string> {
  const form = action ? html.slice(html.indexOf(`action="${action}"`)) : html;
  const end = form.indexOf('</form>');
  const fields: Record<string, string> = {};
  for (const [, name, value] of (end >= 0 ? form.slice(0, end) : form).matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
    fields[unescapeHtml(name)] = unescapeHtml(value);
  }
  return fields;
}

export function authorizeUrl(base: string, params: Record<string, string>): string {
  return `${base}/oauth/authorize?${new URLSearchParams({ response_type: 'code', code_challenge_method: 'S256', redirect_uri: redirectUri, ...params })}`;
}

export interface BrowserAnswer {
  status: number;
  location: string | null;
  html: string;
  headers: Headers;
}

async function browserAnswer(response: Response): Promise<BrowserAnswer> {
  return { status: response.status, location: response.headers.get('location'), html: await response.text(), headers: response.headers };
}

/** A browser opening a page, with its cookies, not following redirects. */
export async function browse(url: string, cookie = ''): Promise<BrowserAnswer> {
  return browserAnswer(await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} }));
}

/** A browser submitting a form (urlencoded), with its cookies, not following redirects. */
export async function submitForm(url: string, fields: Record<string, string>, cookie = ''): Promise<BrowserAnswer> {
  return browserAnswer(
    await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
      body: new URLSearchParams(fields),
    }),
  );
}

/** The person's answer at the consent page the authorization request opened: the query of the redirect it leads to. */
export async function consent(
  base: string,
  consentPage: BrowserAnswer,
  cookie: string,
  answer: { workspaceId: string; scope?: 'read' | 'write'; decision?: 'allow' | 'deny' },
): Promise<URLSearchParams> {
  if (consentPage.status !== 200) throw new Error(`no consent page: ${consentPage.status} ${consentPage.html}`);
  const answered = await submitForm(
    `${base}/oauth/authorize`,
    { ...hiddenFields(consentPage.html, '/oauth/authorize'), workspace: answer.workspaceId, grant_scope: answer.scope ?? 'write', decision: answer.decision ?? 'allow' },
    cookie,
  );
  if (answered.status !== 302 || !answered.location?.startsWith(redirectUri)) throw new Error(`no redirect: ${answered.status} ${answered.html}`);
  return new URL(answered.location).searchParams;
}

export async function tokenRequest(base: string, params: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params),
  });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

/**
 * The whole authorization-code flow with PKCE for a signed-in user: a new
 * client registers, the browser authorizes and consents, the code becomes
 * tokens.
 */
export async function authorizedTokens(
  base: string,
  input: { cookie: string; workspaceId: string; scope?: 'read' | 'write'; clientId?: string },
): Promise<{ clientId: string; access_token: string; refresh_token: string; expires_in: number; scope: string }> {
  const clientId = input.clientId ?? (await registerClient(base)).body.client_id;
  const { verifier, challenge } = pkcePair();
  const page = await browse(authorizeUrl(base, { client_id: clientId, code_challenge: challenge, state: 'xyz' }), input.cookie);
  const redirect = await consent(base, page, input.cookie, { workspaceId: input.workspaceId, scope: input.scope });
  const tokens = await tokenRequest(base, { grant_type: 'authorization_code', client_id: clientId, code: redirect.get('code')!, code_verifier: verifier, redirect_uri: redirectUri });
  if (tokens.status !== 200) throw new Error(`token exchange failed: ${JSON.stringify(tokens.body)}`);
  return { clientId, ...tokens.body };
}
