import type { Queryable } from '../../runtime/database.ts';

export interface OAuthClientRow {
  id: string;
  name: string | null;
  /** The client's registered metadata (RFC 7591) as the registration answered it. */
  metadata: Record<string, unknown>;
  createdAt: Date;
}

export async function insertOAuthClient(sql: Queryable, input: { id: string; name: string | null; metadata: Record<string, unknown> }): Promise<OAuthClientRow> {
  const [row] = await sql<OAuthClientRow[]>`
    /* insertOAuthClient */
    insert into oauth_clients (id, name, metadata)
    values (${input.id}, ${input.name}, ${sql.json(input.metadata as never)})
    returning id, name, metadata, created_at`;
  return row;
}

export async function findOAuthClient(sql: Queryable, id: string): Promise<OAuthClientRow | undefined> {
  // Ids are UUIDs: one PostgreSQL text cannot hold (a `client_id=%00`) names no client, rather than failing the query.
  if (id.includes('\u0000')) return undefined;
  const [row] = await sql<OAuthClientRow[]>`
    /* findOAuthClient */
    select id, name, metadata, created_at from oauth_clients where id = ${id}`;
  return row;
}
