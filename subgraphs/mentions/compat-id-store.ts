import type { Queryable, Sql } from '../../runtime/database.ts';

/** What the compatibility API numbers (spec 4.8), each kind counting from 1 in each workspace. */
export type CompatKind = 'keyword' | 'mention' | 'feedback' | 'suggestion' | 'view';

async function findCompatIds(sql: Queryable, workspaceId: string, kind: CompatKind, objectIds: readonly string[]): Promise<Map<string, number>> {
  const rows = await sql<{ objectId: string; compatId: number }[]>`
    /* findCompatIds */
    select object_id, compat_id from compat_ids
    where workspace_id = ${workspaceId} and kind = ${kind} and object_id = any(${sql.array(objectIds as string[])})`;
  return new Map(rows.map((row) => [row.objectId, row.compatId]));
}

/**
 * The integer ids of `objectIds`, numbering the ones never shown before in
 * the order given, after the highest of their kind. Numbering takes a lock
 * per workspace and kind, so two requests showing new objects at once
 * cannot hand out one number twice; an id once given never changes.
 */
export async function assignCompatIds(sql: Sql, workspaceId: string, kind: CompatKind, objectIds: readonly string[]): Promise<Map<string, number>> {
  const wanted = [...new Set(objectIds)];
  if (wanted.length === 0) return new Map();
  const known = await findCompatIds(sql, workspaceId, kind, wanted);
  if (known.size === wanted.length) return known;
  return sql.begin(async (tx) => {
    await tx`/* lockCompatIds */ select pg_advisory_xact_lock(hashtext(${`compat_ids:${workspaceId}:${kind}`}))`;
    await tx`
      /* assignCompatIds */
      insert into compat_ids (workspace_id, kind, object_id, compat_id)
      select ${workspaceId}, ${kind}, wanted.id,
             (select coalesce(max(compat_id), 0) from compat_ids where workspace_id = ${workspaceId} and kind = ${kind}) + row_number() over (order by wanted.position)
      from unnest(${tx.array(wanted)}::text[]) with ordinality as wanted(id, position)
      where not exists (select 1 from compat_ids c where c.workspace_id = ${workspaceId} and c.kind = ${kind} and c.object_id = wanted.id)`;
    return findCompatIds(tx, workspaceId, kind, wanted);
  }) as Promise<Map<string, number>>;
}

/** The objects the integer ids name; an id never given names nothing. */
export async function findCompatObjects(sql: Queryable, workspaceId: string, kind: CompatKind, compatIds: readonly number[]): Promise<Map<number, string>> {
  if (compatIds.length === 0) return new Map();
  const rows = await sql<{ objectId: string; compatId: number }[]>`
    /* findCompatObjects */
    select object_id, compat_id from compat_ids
    where workspace_id = ${workspaceId} and kind = ${kind} and compat_id = any(${sql.array(compatIds as number[])}::integer[])`;
  return new Map(rows.map((row) => [row.compatId, row.objectId]));
}
