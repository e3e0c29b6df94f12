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

export async function revokeApiKey(sql: Queryable, workspaceId: string, id: string): Promise<ApiKeyRow | undefined> {
  const [row] = await sql<ApiKeyRow[]>`
    /* revokeApiKey */
    update api_keys set revoked_at = now()
    where id = ${id} and workspace_id = ${workspaceId} and revoked_at is null
    returning id, workspace_id, name, prefix, scope, created_at, last_used_at, expires_at`;
  return row;
}

/**
 * The key a bearer secret names, if it is live. `last_used_at` is written at
 * most once a minute per key, in the same statement, so authentication
 * costs one round trip and busy keys do not write on every request.
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
        and (live.last_used_at is null or live.last_used_at < now() - interval '1 minute')
    )
    select id, workspace_id, scope, expires_at from live`;
  return row;
}
