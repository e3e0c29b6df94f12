import { createHmac } from 'node:crypto';
import type { Queryable } from '../../runtime/database.ts';
import { newId, randomBase62 } from '../../runtime/ids.ts';
import { hashSecretToken } from './secret-token.ts';

export const sessionLifetimeDays = 14;

export interface NewSession {
  id: string;
  /** The cookie's value; only its hash is stored. */
  token: string;
  csrfToken: string;
  expiresAt: Date;
}

export interface AuthenticatedSession {
  id: string;
  userId: string;
  workspaceId: string;
  expiresAt: Date;
  csrfToken: string;
}

/**
 * The token a cookie-authenticated change must repeat in `X-CSRF-Token`:
 * derived from the session token, so a page on another site, which can
 * neither read the session cookie nor this value, cannot forge it, and no
 * second secret needs storing.
 */
export const csrfTokenFor = (sessionToken: string) => createHmac('sha256', sessionToken).update('earshot csrf').digest('base64url');

export async function insertSession(sql: Queryable, input: { userId: string; workspaceId: string }): Promise<NewSession> {
  const token = randomBase62(32);
  const [row] = await sql<{ id: string; expiresAt: Date }[]>`
    /* insertSession */
    insert into sessions (id, token_hash, user_id, workspace_id, expires_at)
    values (${newId('ses')}, ${hashSecretToken(token)}, ${input.userId}, ${input.workspaceId},
            now() + make_interval(days => ${sessionLifetimeDays}))
    returning id, expires_at`;
  return { id: row.id, token, csrfToken: csrfTokenFor(token), expiresAt: row.expiresAt };
}

/** The live session a cookie names, while its user is still a member of its workspace. */
export async function authenticateSession(sql: Queryable, token: string): Promise<AuthenticatedSession | undefined> {
  const [row] = await sql<Omit<AuthenticatedSession, 'csrfToken'>[]>`
    /* authenticateSession */
    select sessions.id, sessions.user_id, sessions.workspace_id, sessions.expires_at
    from sessions
    join workspace_members on workspace_members.workspace_id = sessions.workspace_id and workspace_members.user_id = sessions.user_id
    where sessions.token_hash = ${hashSecretToken(token)} and sessions.revoked_at is null and sessions.expires_at > now()`;
  return row ? { ...row, csrfToken: csrfTokenFor(token) } : undefined;
}

export async function revokeSession(sql: Queryable, id: string): Promise<void> {
  await sql`
    /* revokeSession */
    update sessions set revoked_at = now() where id = ${id} and revoked_at is null`;
}

/** Ends every live session of the user but `keepId` (none kept when null). */
export async function revokeOtherSessions(sql: Queryable, userId: string, keepId: string | null): Promise<void> {
  await sql`
    /* revokeOtherSessions */
    update sessions set revoked_at = now()
    where user_id = ${userId} and revoked_at is null and id is distinct from ${keepId}`;
}
