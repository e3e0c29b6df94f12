import type { Queryable } from '../../runtime/database.ts';
import { newId, randomBase62 } from '../../runtime/ids.ts';
import { hashSecretToken } from './secret-token.ts';

export type ApiKeyScope = 'read' | 'write';

export interface ApiKeyRow {
  id: string;
  workspaceId: string;
  name: string;
  prefix: string;
  scope: ApiKeyScope;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
}

export interface AuthenticatedKey {
  id: string;
  workspaceId: string;
  scope: ApiKeyScope;
  expiresAt: Date | null;
}

const keyPrefix = 'mk_live_';
// What `prefix` shows: enough to tell keys apart, far too little to guess one.
const shownPrefixLength = keyPrefix.length + 6;


/** A new secret: `mk_live_` and 256 random bits in base62. */
export function generateApiKeySecret(): string {
  return keyPrefix + randomBase62(32);
}

export async function insertApiKey(
  sql: Queryable,
  input: { workspaceId: string; name: string; scope: ApiKeyScope; expiresAt: Date | null },
): Promise<ApiKeyRow & { key: string }> {
  const key = generateApiKeySecret();
  const [row] = await sql<ApiKeyRow[]>`
    /* insertApiKey */
    insert into api_keys (id, workspace_id, name, prefix, secret_hash, scope, expires_at)
    values (${newId('key')}, ${input.workspaceId}, ${input.name}, ${key.slice(0, shownPrefixLength)},
            ${hashSecretToken(key)}, ${input.scope}, ${input.expiresAt})
    returning id, workspace_id, name, prefix, scope, created_at, last_used_at, expires_at`;
  return { ...row, key };
}

export async function listApiKeys(sql: Queryable, workspaceId: string): Promise<ApiKeyRow[]> {
  return sql<ApiKeyRow[]>`
    /* listApiKeys */
    select id, workspace_id, name, prefix, scope, created_at, last_used_at, expires_at
    from api_keys
    where workspace_id = ${workspaceId} and revoked_at is null
    order by id`;
}

/** One key of the workspace, revoked or not: an activity it logged still names it after a revoke. */
export async function findApiKey(sql: Queryable, workspaceId: string, id: string): Promise<ApiKeyRow | undefined> {
  const [row] = await sql<ApiKeyRow[]>`
    /* findApiKey */
    select id, workspace_id, name, prefix, scope, created_at, last_used_at, expires_at
    from api_keys
    where id = ${id} and workspace_id = ${workspaceId}`;
  return row;
}

export async function revokeApiKey(sql: Queryable, workspaceId: string, id: string): Promise<ApiKeyRow | undefined> {
  const [row] = await sql<ApiKeyRow[]>`
    /* revokeApiKey */
    update api_keys set revoked_at = now()
    where id = ${id} and workspace_id = ${workspaceId} and revoked_at is null
    returning id, workspace_id, name, prefix, scope, created_at, last_used_at, expires_at`;
  return row;
}

/**
 * How far `last_used_at` may trail a key's latest use: it is written at most
 * once a second per key, so it moves with every request a person or a
 * script sends (spec 2.7: it updates whenever the key authenticates) while a
 * busy key writes once a second, not on every request.
 */
export const lastUseResolutionMs = 1000;

/**
 * The key a bearer secret names, if it is live. `last_used_at` is written in
 * the same statement (at most once per `lastUseResolutionMs`), so
 * authentication costs one round trip.
 */
export async function authenticateApiKey(sql: Queryable, secret: string): Promise<AuthenticatedKey | undefined> {
  if (!secret.startsWith(keyPrefix)) return undefined;
  const [row] = await sql<AuthenticatedKey[]>`
    /* authenticateApiKey */
    with live as (
      select id, workspace_id, scope, expires_at, last_used_at
      from api_keys
      where secret_hash = ${hashSecretToken(secret)} and revoked_at is null
        and (expires_at is null or expires_at > now())
    ), touched as (
      update api_keys set last_used_at = now()
      from live
      where api_keys.id = live.id
        and (live.last_used_at is null or live.last_used_at < now() - make_interval(secs => ${lastUseResolutionMs / 1000}))
    )
    select id, workspace_id, scope, expires_at from live`;
  return row;
}

/** Records a use of a key authenticated from memory (at most once per `lastUseResolutionMs`). */
export async function recordApiKeyUse(sql: Queryable, id: string): Promise<void> {
  await sql`
    /* recordApiKeyUse */
    update api_keys set last_used_at = now()
    where id = ${id} and (last_used_at is null or last_used_at < now() - make_interval(secs => ${lastUseResolutionMs / 1000}))`;
}
