import type { Queryable } from '../../runtime/database.ts';
import { newId } from '../../runtime/ids.ts';
import { domainError } from '../domain-error.ts';
import type { PeopleFilter } from './person-filter.ts';

/** A named filter over the workspace's people (issue 14 point 4). */
export interface SegmentRow {
  id: string;
  workspaceId: string;
  name: string;
  filter: PeopleFilter;
  createdAt: Date;
  updatedAt: Date;
}

/** A name the workspace already gives another segment, whatever its case, is `duplicate_segment` (409); cause kept. */
export function translateSegmentWriteError(error: unknown, name: string | undefined): unknown {
  const { code, constraint_name: constraint } = error as { code?: string; constraint_name?: string };
  if (code === '23505' && constraint === 'segments_by_name') {
    return domainError('duplicate_segment', `A segment named "${name}" already exists`, { field: 'name' }, error);
  }
  return error;
}

export async function insertSegment(sql: Queryable, workspaceId: string, segment: { name: string; filter: PeopleFilter }, now: Date): Promise<SegmentRow> {
  const [row] = await sql<SegmentRow[]>`
    /* insertSegment */
    insert into segments (id, workspace_id, name, filter, created_at, updated_at)
    values (${newId('seg')}, ${workspaceId}, ${segment.name}, ${sql.json(segment.filter as never)}, ${now}, ${now})
    returning *`;
  return row;
}

export async function updateSegment(
  sql: Queryable,
  workspaceId: string,
  id: string,
  changes: { name?: string; filter?: PeopleFilter },
  now: Date,
): Promise<SegmentRow | undefined> {
  const [row] = await sql<SegmentRow[]>`
    /* updateSegment */
    update segments set
      name = coalesce(${changes.name ?? null}, name),
      filter = coalesce(${changes.filter ? sql.json(changes.filter as never) : null}::jsonb, filter),
      updated_at = ${now}
    where workspace_id = ${workspaceId} and id = ${id}
    returning *`;
  return row;
}

export async function findSegment(sql: Queryable, workspaceId: string, id: string): Promise<SegmentRow | undefined> {
  const [row] = await sql<SegmentRow[]>`
    /* findSegment */
    select * from segments where workspace_id = ${workspaceId} and id = ${id}`;
  return row;
}

export async function listSegments(sql: Queryable, workspaceId: string): Promise<SegmentRow[]> {
  return sql<SegmentRow[]>`
    /* listSegments */
    select * from segments where workspace_id = ${workspaceId} order by created_at, id`;
}

export async function deleteSegment(sql: Queryable, workspaceId: string, id: string): Promise<boolean> {
  const rows = await sql`
    /* deleteSegment */
    delete from segments where workspace_id = ${workspaceId} and id = ${id} returning id`;
  return rows.length > 0;
}
