import type { Queryable } from '../../runtime/database.ts';
import { newId, randomBase62 } from '../../runtime/ids.ts';
import { hashSecretToken } from './secret-token.ts';

export type OAuthScope = 'read' | 'write';

/** 256 random bits behind a prefix saying what the secret is (and letting secret scanners find it). */
export const newOAuthSecret = (prefix: 'oac' | 'oat' | 'ort') => `${prefix}_${randomBase62(32)}`;

export interface AuthorizationCodeRow {
  clientId: string;
  userId: string;
  workspaceId: string;
  scope: OAuthScope;
  redirectUri: string;
  /** Whether the authorization request named `redirectUri` (rather than the client's only registered one being taken). */
  redirectUriNamed: boolean;
  codeChallenge: string;
  resource: string | null;
  expiresAt: Date;
  grantId: string | null;
}

export interface GrantRow {
  id: string;
  clientId: string;
  userId: string;
  workspaceId: string;
  scope: OAuthScope;
  revokedAt: Date | null;
}

export interface TokenRow {
  kind: 'access' | 'refresh';
  scope: OAuthScope;
  expiresAt: Date;
  usedAt: Date | null;
  grant: GrantRow;
  /** Whether the grant's user is still a member of its workspace. */
  userIsMember: boolean;
}

export async function insertAuthorizationCode(
  sql: Queryable,
  input: Omit<AuthorizationCodeRow, 'grantId'> & { code: string },
): Promise<void> {
  await sql`
    /* insertAuthorizationCode */
    insert into oauth_authorization_codes (code_hash, client_id, user_id, workspace_id, scope, redirect_uri, redirect_uri_named, code_challenge, resource, expires_at)
    values (${hashSecretToken(input.code)}, ${input.clientId}, ${input.userId}, ${input.workspaceId}, ${input.scope},
            ${input.redirectUri}, ${input.redirectUriNamed}, ${input.codeChallenge}, ${input.resource}, ${input.expiresAt})`;
}

/** The code's row; `lock` holds it for the rest of the transaction, so one exchange of a code wins. */
export async function findAuthorizationCode(sql: Queryable, code: string, options: { lock?: boolean } = {}): Promise<AuthorizationCodeRow | undefined> {
  const [row] = await sql<AuthorizationCodeRow[]>`
    /* findAuthorizationCode */
    select client_id, user_id, workspace_id, scope, redirect_uri, redirect_uri_named, code_challenge, resource, expires_at, grant_id
    from oauth_authorization_codes where code_hash = ${hashSecretToken(code)}
    ${options.lock ? sql`for update` : sql``}`;
  return row;
}

export async function markAuthorizationCodeExchanged(sql: Queryable, code: string, grantId: string): Promise<void> {
  await sql`
    /* markAuthorizationCodeExchanged */
    update oauth_authorization_codes set grant_id = ${grantId} where code_hash = ${hashSecretToken(code)}`;
}

export async function insertGrant(
  sql: Queryable,
  input: { clientId: string; userId: string; workspaceId: string; scope: OAuthScope; resource: string | null; now: Date },
): Promise<string> {
  const [row] = await sql<{ id: string }[]>`
    /* insertGrant */
    insert into oauth_grants (id, client_id, user_id, workspace_id, scope, resource, created_at, last_used_at)
    values (${newId('oag')}, ${input.clientId}, ${input.userId}, ${input.workspaceId}, ${input.scope},
            ${input.resource}, ${input.now}, ${input.now})
    returning id`;
  return row.id;
}

/** Ends a grant: every token of its family stops working at once. */
export async function revokeGrant(sql: Queryable, grantId: string, now: Date): Promise<void> {
  await sql`
    /* revokeGrant */
    update oauth_grants set revoked_at = ${now} where id = ${grantId} and revoked_at is null`;
}

export async function insertToken(
  sql: Queryable,
  input: { token: string; grantId: string; kind: 'access' | 'refresh'; scope: OAuthScope; expiresAt: Date },
): Promise<void> {
  await sql`
    /* insertOAuthToken */
    insert into oauth_tokens (token_hash, grant_id, kind, scope, expires_at)
    values (${hashSecretToken(input.token)}, ${input.grantId}, ${input.kind}, ${input.scope}, ${input.expiresAt})`;
}

/** The token with its grant; `lock` holds the token's row, so one rotation of a refresh token wins. */
export async function findToken(sql: Queryable, token: string, options: { lock?: boolean } = {}): Promise<TokenRow | undefined> {
  const [row] = await sql<(Omit<TokenRow, 'grant'> & { grantId: string; clientId: string; userId: string; workspaceId: string; grantScope: OAuthScope; revokedAt: Date | null })[]>`
    /* findOAuthToken */
    select oauth_tokens.kind, oauth_tokens.scope, oauth_tokens.expires_at, oauth_tokens.used_at,
           oauth_grants.id as grant_id, oauth_grants.client_id, oauth_grants.user_id, oauth_grants.workspace_id,
           oauth_grants.scope as grant_scope, oauth_grants.revoked_at,
           exists (select 1 from workspace_members
                   where workspace_members.workspace_id = oauth_grants.workspace_id
                     and workspace_members.user_id = oauth_grants.user_id) as user_is_member
    from oauth_tokens join oauth_grants on oauth_grants.id = oauth_tokens.grant_id
    where oauth_tokens.token_hash = ${hashSecretToken(token)}
    ${options.lock ? sql`for update of oauth_tokens` : sql``}`;
  if (!row) return undefined;
  const { grantId, clientId, userId, workspaceId, grantScope, revokedAt, ...tokenFields } = row;
  return { ...tokenFields, grant: { id: grantId, clientId, userId, workspaceId, scope: grantScope, revokedAt } };
}

/**
 * Marks a refresh token used, once: false when it already was (its rotation
 * happened before), which is a reuse. The grant's expired tokens go in the
 * same statement: past its expiry a token is refused anyway, and used refresh
 * tokens stay until then for reuse detection.
 */
export async function useRefreshToken(sql: Queryable, token: string, grantId: string, now: Date): Promise<boolean> {
  const [used] = await sql<{ used: boolean }[]>`
    /* useRefreshToken */
    with used as (
      update oauth_tokens set used_at = ${now}
      where token_hash = ${hashSecretToken(token)} and used_at is null
      returning 1
    ), expired as (
      delete from oauth_tokens where grant_id = ${grantId} and expires_at <= ${now}
    )
    select exists (select 1 from used) as used`;
  return used.used;
}

export async function deleteAccessToken(sql: Queryable, token: string): Promise<void> {
  await sql`
    /* deleteOAuthAccessToken */
    delete from oauth_tokens where token_hash = ${hashSecretToken(token)} and kind = 'access'`;
}

export interface AuthenticatedOAuthToken {
  grantId: string;
  clientId: string;
  userId: string;
  workspaceId: string;
  scope: OAuthScope;
  expiresAt: Date;
}

/**
 * The live access token a bearer names: unexpired, its grant not revoked,
 * its user still a member of the workspace. The grant's `last_used_at` is
 * written at most once a minute, in the same statement, as API keys do.
 */
export async function authenticateAccessToken(sql: Queryable, token: string, now: Date): Promise<AuthenticatedOAuthToken | undefined> {
  const [row] = await sql<AuthenticatedOAuthToken[]>`
    /* authenticateOAuthAccessToken */
    with live as (
      select oauth_grants.id as grant_id, oauth_grants.client_id, oauth_grants.user_id, oauth_grants.workspace_id,
             oauth_tokens.scope, oauth_tokens.expires_at, oauth_grants.last_used_at
      from oauth_tokens
      join oauth_grants on oauth_grants.id = oauth_tokens.grant_id and oauth_grants.revoked_at is null
      join workspace_members on workspace_members.workspace_id = oauth_grants.workspace_id
                            and workspace_members.user_id = oauth_grants.user_id
      where oauth_tokens.token_hash = ${hashSecretToken(token)} and oauth_tokens.kind = 'access'
        and oauth_tokens.expires_at > ${now}
    ), touched as (
      update oauth_grants set last_used_at = ${now}
      from live
      where oauth_grants.id = live.grant_id
        and (live.last_used_at is null or live.last_used_at < ${new Date(now.getTime() - 60_000)})
    )
    select grant_id, client_id, user_id, workspace_id, scope, expires_at from live`;
  return row;
}

export interface ConnectedAppRow {
  id: string;
  clientId: string;
  clientName: string | null;
  clientUri: string | null;
  userId: string;
  userName: string;
  userEmail: string;
  scope: OAuthScope;
  createdAt: Date;
  lastUsedAt: Date | null;
}

const connectedAppColumns = (sql: Queryable) => sql`
  oauth_grants.id, oauth_grants.client_id, oauth_clients.name as client_name,
  oauth_clients.metadata ->> 'client_uri' as client_uri,
  users.id as user_id, users.name as user_name, users.email as user_email,
  oauth_grants.scope, oauth_grants.created_at, oauth_grants.last_used_at`;

/** Grants that can still act: not revoked, with a refresh token left to use. */
export async function listConnectedApps(sql: Queryable, workspaceId: string, now: Date): Promise<ConnectedAppRow[]> {
  return sql<ConnectedAppRow[]>`
    /* listConnectedApps */
    select ${connectedAppColumns(sql)}
    from oauth_grants
    join oauth_clients on oauth_clients.id = oauth_grants.client_id
    join users on users.id = oauth_grants.user_id
    where oauth_grants.workspace_id = ${workspaceId} and oauth_grants.revoked_at is null
      and exists (select 1 from oauth_tokens
                  where oauth_tokens.grant_id = oauth_grants.id and oauth_tokens.kind = 'refresh'
                    and oauth_tokens.used_at is null and oauth_tokens.expires_at > ${now})
    order by oauth_grants.id`;
}

export async function findConnectedApp(sql: Queryable, workspaceId: string, id: string): Promise<ConnectedAppRow | undefined> {
  const [row] = await sql<ConnectedAppRow[]>`
    /* findConnectedApp */
    select ${connectedAppColumns(sql)}
    from oauth_grants
    join oauth_clients on oauth_clients.id = oauth_grants.client_id
    join users on users.id = oauth_grants.user_id
    where oauth_grants.workspace_id = ${workspaceId} and oauth_grants.id = ${id} and oauth_grants.revoked_at is null`;
  return row;
}
