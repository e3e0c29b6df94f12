import type { Queryable, Sql } from '../../runtime/database.ts';
import { findMemberRole } from './member-store.ts';
import {
  authenticateAccessToken,
  type AuthenticatedOAuthToken,
  deleteAccessToken,
  findAuthorizationCode,
  findToken,
  insertAuthorizationCode,
  insertGrant,
  insertToken,
  markAuthorizationCodeExchanged,
  newOAuthSecret,
  type OAuthScope,
  revokeGrant,
  useRefreshToken,
} from './oauth-grant-store.ts';

export type { OAuthScope } from './oauth-grant-store.ts';

/**
 * A refusal the OAuth protocol names (RFC 6749 5.2): the authorization
 * server's endpoints answer it in OAuth's own JSON, never as a domain error.
 */
export class OAuthGrantError extends Error {
  constructor(
    readonly code: 'invalid_grant' | 'invalid_scope' | 'invalid_request',
    message: string,
  ) {
    super(message);
  }
}

export interface OAuthLifetimes {
  /** How long an access token works (`EARSHOT_OAUTH_ACCESS_TOKEN_S`): short, since a stolen one is not detected. */
  accessTokenSeconds: number;
}

/** A code is exchanged by the client right after the redirect. */
const codeLifetimeSeconds = 300;
/** A refresh token unused this long lapses, and its grant with it; each rotation starts a new one. */
const refreshTokenLifetimeSeconds = 30 * 86_400;

export interface OAuthTokenSet {
  accessToken: string;
  refreshToken: string;
  expiresInSeconds: number;
  scope: OAuthScope;
}

const secondsAfter = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000);

/**
 * The scope asked for as one of ours: `write` includes `read`, so a request
 * naming `write` asks for `write`; no scope at all asks for everything.
 * Undefined when a scope is not ours.
 */
export function requestedScope(scopes: readonly string[]): OAuthScope | undefined {
  if (scopes.some((scope) => scope !== 'read' && scope !== 'write')) return undefined;
  return scopes.length === 0 || scopes.includes('write') ? 'write' : 'read';
}

/** How a scope reads on the wire (RFC 6749 3.3): `write` is `read write`. */
export const scopeText = (scope: OAuthScope) => (scope === 'write' ? 'read write' : 'read');

/** After consent: a code for the client's redirect, bound to its PKCE challenge. The user must belong to the workspace. */
export async function issueAuthorizationCode(
  sql: Queryable,
  input: { clientId: string; userId: string; workspaceId: string; scope: OAuthScope; redirectUri: string; redirectUriNamed: boolean; codeChallenge: string; resource: string | null },
  now: Date,
): Promise<string> {
  if (!(await findMemberRole(sql, input.workspaceId, input.userId))) {
    throw new OAuthGrantError('invalid_request', 'The signed-in user is no member of that workspace');
  }
  const code = newOAuthSecret('oac');
  await insertAuthorizationCode(sql, { ...input, code, expiresAt: secondsAfter(now, codeLifetimeSeconds) });
  return code;
}

const invalidCode = () => new OAuthGrantError('invalid_grant', 'The authorization code is invalid or expired');
const reusedCode = () => new OAuthGrantError('invalid_grant', 'The authorization code was used already; the tokens issued for it are revoked');

/** The PKCE challenge a code was issued with. A code used before revokes what it gave (RFC 6749 4.1.2). */
export async function codeChallengeFor(sql: Sql, clientId: string, code: string, now: Date): Promise<string> {
  const row = await findAuthorizationCode(sql, code);
  if (!row || row.clientId !== clientId || row.expiresAt <= now) throw invalidCode();
  if (row.grantId) {
    await revokeGrant(sql, row.grantId, now);
    throw reusedCode();
  }
  return row.codeChallenge;
}

async function issueTokens(sql: Queryable, grantId: string, scopes: { access: OAuthScope; refresh: OAuthScope }, lifetimes: OAuthLifetimes, now: Date): Promise<OAuthTokenSet> {
  const accessToken = newOAuthSecret('oat');
  const refreshToken = newOAuthSecret('ort');
  await insertToken(sql, { token: accessToken, grantId, kind: 'access', scope: scopes.access, expiresAt: secondsAfter(now, lifetimes.accessTokenSeconds) });
  await insertToken(sql, { token: refreshToken, grantId, kind: 'refresh', scope: scopes.refresh, expiresAt: secondsAfter(now, refreshTokenLifetimeSeconds) });
  return { accessToken, refreshToken, expiresInSeconds: lifetimes.accessTokenSeconds, scope: scopes.access };
}

/**
 * Runs `work` in a transaction that commits even when it refuses: the
 * revocation that answers a reused code or refresh token must stay.
 */
async function refusingAfterCommit<T>(sql: Sql, work: (tx: Queryable) => Promise<T | OAuthGrantError>): Promise<T> {
  const outcome = (await sql.begin(work)) as T | OAuthGrantError;
  if (outcome instanceof OAuthGrantError) throw outcome;
  return outcome;
}

/**
 * The code's grant and its first tokens. The code's row is locked, so of two
 * exchanges one wins and the other revokes what the first got.
 */
export function exchangeAuthorizationCode(
  sql: Sql,
  input: { clientId: string; code: string; redirectUri?: string; resource?: string },
  lifetimes: OAuthLifetimes,
  now: Date,
): Promise<OAuthTokenSet> {
  return refusingAfterCommit(sql, async (tx) => {
    const row = await findAuthorizationCode(tx, input.code, { lock: true });
    if (!row || row.clientId !== input.clientId || row.expiresAt <= now) return invalidCode();
    if (row.grantId) {
      await revokeGrant(tx, row.grantId, now);
      return reusedCode();
    }
    // RFC 6749 4.1.3: the redirect_uri of the authorization request, when it named one, is repeated here, identical.
    if (input.redirectUri === undefined && row.redirectUriNamed) {
      return new OAuthGrantError('invalid_request', 'redirect_uri is required: the authorization request named one');
    }
    if (input.redirectUri !== undefined && input.redirectUri !== row.redirectUri) {
      return new OAuthGrantError('invalid_grant', 'redirect_uri differs from the one of the authorization request');
    }
    if (input.resource !== undefined && row.resource !== null && input.resource !== row.resource) {
      return new OAuthGrantError('invalid_grant', 'resource differs from the one of the authorization request');
    }
    if (!(await findMemberRole(tx, row.workspaceId, row.userId))) return invalidCode();
    const grantId = await insertGrant(tx, { ...row, resource: input.resource ?? row.resource, now });
    await markAuthorizationCodeExchanged(tx, input.code, grantId);
    return issueTokens(tx, grantId, { access: row.scope, refresh: row.scope }, lifetimes, now);
  });
}

/**
 * Rotates a refresh token (OAuth 2.1 4.3.1): the old one is used up and a
 * new pair issued. A used one presented again means two parties hold it, so
 * the whole grant is revoked. `scopes` may narrow the new access token.
 */
export function refreshOAuthTokens(
  sql: Sql,
  input: { clientId: string; refreshToken: string; scopes?: readonly string[] },
  lifetimes: OAuthLifetimes,
  now: Date,
): Promise<OAuthTokenSet> {
  return refusingAfterCommit(sql, async (tx) => {
    const token = await findToken(tx, input.refreshToken, { lock: true });
    if (!token || token.kind !== 'refresh' || token.grant.clientId !== input.clientId || token.grant.revokedAt || token.expiresAt <= now) {
      return new OAuthGrantError('invalid_grant', 'The refresh token is invalid, expired or revoked');
    }
    const reused = () => new OAuthGrantError('invalid_grant', 'The refresh token was used already; every token of its grant is revoked');
    if (token.usedAt || !token.userIsMember) {
      await revokeGrant(tx, token.grant.id, now);
      return token.usedAt ? reused() : new OAuthGrantError('invalid_grant', 'The user is no longer a member of the workspace');
    }
    const access = input.scopes?.length ? requestedScope(input.scopes) : token.grant.scope;
    if (!access || (access === 'write' && token.grant.scope === 'read')) {
      return new OAuthGrantError('invalid_scope', `The grant allows ${scopeText(token.grant.scope)} only`);
    }
    if (!(await useRefreshToken(tx, input.refreshToken, token.grant.id, now))) {
      await revokeGrant(tx, token.grant.id, now);
      return reused();
    }
    return issueTokens(tx, token.grant.id, { access, refresh: token.grant.scope }, lifetimes, now);
  });
}

/**
 * RFC 7009: a refresh token revokes its grant, an access token itself. A
 * token that is unknown or another client's is left alone, and the answer
 * is the same.
 */
export async function revokeOAuthToken(sql: Sql, input: { clientId: string; token: string }, now: Date): Promise<void> {
  const token = await findToken(sql, input.token);
  if (!token || token.grant.clientId !== input.clientId) return;
  if (token.kind === 'refresh') await revokeGrant(sql, token.grant.id, now);
  else await deleteAccessToken(sql, input.token);
}

/** The live access token a bearer names, if it is one. */
export async function authenticateOAuthToken(sql: Queryable, token: string, now: Date): Promise<AuthenticatedOAuthToken | undefined> {
  return token.startsWith('oat_') ? authenticateAccessToken(sql, token, now) : undefined;
}
