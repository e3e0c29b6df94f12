import type { Queryable } from '../../runtime/database.ts';

/** Where a live stream resumes after a restart (e.g. Jetstream's `time_us`). */
export async function findStreamCursor(sql: Queryable, name: string): Promise<string | null> {
  const [row] = await sql<{ cursor: string }[]>`
    /* findStreamCursor */
    select cursor from stream_cursors where name = ${name}`;
  return row?.cursor ?? null;
}

export async function saveStreamCursor(sql: Queryable, name: string, cursor: string): Promise<void> {
  await sql`
    /* saveStreamCursor */
    insert into stream_cursors (name, cursor) values (${name}, ${cursor})
    on conflict (name) do update set cursor = excluded.cursor, updated_at = now()`;
}
