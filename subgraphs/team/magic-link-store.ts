import type { Queryable } from '../../runtime/database.ts';
import { hashSecretToken, newSecretToken } from './secret-token.ts';

const lifetimeMinutes = 15;

/** A new link token for the user (256 random bits); only its hash is stored. */
export async function insertMagicLink(sql: Queryable, userId: string): Promise<string> {
  const token = newSecretToken();
  await sql`
    /* insertMagicLink */
    insert into magic_links (token_hash, user_id, expires_at)
    values (${hashSecretToken(token)}, ${userId}, now() + make_interval(mins => ${lifetimeMinutes}))`;
  return token;
}

/** The user a live, unused token names, marking it used in the same statement so it works once. */
export async function useMagicLink(sql: Queryable, token: string): Promise<string | undefined> {
  const [row] = await sql<{ userId: string }[]>`
    /* useMagicLink */
    update magic_links set used_at = now()
    where token_hash = ${hashSecretToken(token)} and used_at is null and expires_at > now()
    returning user_id`;
  return row?.userId;
}
