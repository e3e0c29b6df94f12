import type { Queryable } from '../../runtime/database.ts';
import { newId } from '../../runtime/ids.ts';
import { domainError } from '../domain-error.ts';
import type { MentionFilter, MentionSort } from './mention-filter.ts';

/** A saved view (spec 2.11, 4.7): a named set of the list's filters and its sort. */
export interface MentionViewRow {
  id: string;
  workspaceId: string;
  name: string;
  /** The filter as it was checked when saved: the GraphQL input's JSON. */
  filter: Record<string, unknown>;
  sort: MentionSort;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * The domain error a failed view write stands for, the database's own kept
 * as its cause: a name the workspace already uses, in any case, is
 * `duplicate_view` (spec 7); anything else is returned as it is.
 */
export function translateViewWriteError(error: unknown, name: string | undefined): unknown {
  const { code, constraint_name: constraint } = error as { code?: string; constraint_name?: string };
  if (code === '23505' && constraint === 'mention_views_by_name') return domainError('duplicate_view', `A view named "${name}" already exists`, { field: 'name' }, error);
  return error;
}

export async function insertMentionView(sql: Queryable, workspaceId: string, view: { name: string; filter: MentionFilter; sort: MentionSort }): Promise<MentionViewRow> {
  const [row] = await sql<MentionViewRow[]>`
    /* insertMentionView */
    insert into mention_views (id, workspace_id, name, filter, sort)
    values (${newId('view')}, ${workspaceId}, ${view.name}, ${sql.json(view.filter as never)}, ${view.sort})
    returning *`;
  return row;
}

export async function updateMentionView(
  sql: Queryable,
  workspaceId: string,
  id: string,
  changes: Partial<{ name: string; filter: MentionFilter; sort: MentionSort }>,
): Promise<MentionViewRow | undefined> {
  const values: Record<string, unknown> = {};
  if (changes.name !== undefined) values.name = changes.name;
  if (changes.filter !== undefined) values.filter = sql.json(changes.filter as never);
  if (changes.sort !== undefined) values.sort = changes.sort;
  if (Object.keys(values).length === 0) return findMentionView(sql, workspaceId, id);
  const [row] = await sql<MentionViewRow[]>`
    /* updateMentionView */
    update mention_views set ${sql(values)}, updated_at = now() where id = ${id} and workspace_id = ${workspaceId} returning *`;
  return row;
}

export async function findMentionView(sql: Queryable, workspaceId: string, id: string): Promise<MentionViewRow | undefined> {
  const [row] = await sql<MentionViewRow[]>`
    /* findMentionView */
    select * from mention_views where id = ${id} and workspace_id = ${workspaceId}`;
  return row;
}

/** The workspace's views in the order they were made. */
export async function listMentionViews(sql: Queryable, workspaceId: string): Promise<MentionViewRow[]> {
  return sql<MentionViewRow[]>`
    /* listMentionViews */
    select * from mention_views where workspace_id = ${workspaceId} order by created_at, id`;
}

/**
 * Which of the users are members of the workspace. Read from team's
 * `workspace_members` as the triage's foreign key reads it (migration 023):
 * a view's or a segment's filter is JSON, which no foreign key can check.
 */
export async function workspaceMembersAmong(sql: Queryable, workspaceId: string, userIds: readonly string[]): Promise<Set<string>> {
  const rows = await sql<{ userId: string }[]>`
    /* workspaceMembersAmong */
    select user_id from workspace_members where workspace_id = ${workspaceId} and user_id = any(${sql.array([...userIds])})`;
  return new Set(rows.map((row) => row.userId));
}

/** Deletes a view; whether there was one. */
export async function deleteMentionView(sql: Queryable, workspaceId: string, id: string): Promise<boolean> {
  const rows = await sql`/* deleteMentionView */ delete from mention_views where id = ${id} and workspace_id = ${workspaceId} returning id`;
  return rows.length > 0;
}
