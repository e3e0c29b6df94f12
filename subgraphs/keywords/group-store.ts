import { insertedOrExisting, type Queryable } from '../../runtime/database.ts';
import { newId } from '../../runtime/ids.ts';
import { domainError } from '../domain-error.ts';

export interface GroupRow {
  id: string;
  workspaceId: string;
  name: string;
  externalId: string | null;
  description: string | null;
  isDefault: boolean;
  createdAt: Date;
}

export const defaultGroupName = 'Default';

/**
 * The domain error a failed group write stands for, the database's own kept
 * as its cause: a name or an externalId the workspace already uses is
 * `duplicate_group` naming that field; anything else is returned as it is.
 */
export function translateGroupWriteError(error: unknown, names: { name?: string; externalId?: string | null }): unknown {
  const { code, constraint_name: constraint } = error as { code?: string; constraint_name?: string };
  if (code !== '23505') return error;
  if (constraint === 'keyword_groups_by_name') return domainError('duplicate_group', `A group named "${names.name}" already exists`, { field: 'name' }, error);
  if (constraint === 'keyword_groups_by_external_id') {
    return domainError('duplicate_group', `A group with externalId "${names.externalId}" already exists`, { field: 'externalId' }, error);
  }
  return error;
}

/** The workspace's default group, created on first need so every workspace has exactly one. */
export async function ensureDefaultGroup(sql: Queryable, workspaceId: string): Promise<GroupRow> {
  const row = await insertedOrExisting(() => sql<GroupRow[]>`
    /* ensureDefaultGroup */
    with created as (
      insert into keyword_groups (id, workspace_id, name, is_default)
      values (${newId('grp')}, ${workspaceId}, ${defaultGroupName}, true)
      on conflict do nothing
      returning *
    )
    select * from created
    union all
    select * from keyword_groups where workspace_id = ${workspaceId} and is_default
    limit 1`);
  return row;
}

export async function insertGroup(
  sql: Queryable,
  workspaceId: string,
  group: { name: string; externalId: string | null; description: string | null },
): Promise<GroupRow> {
  const [row] = await sql<GroupRow[]>`
    /* insertGroup */
    insert into keyword_groups (id, workspace_id, name, external_id, description)
    values (${newId('grp')}, ${workspaceId}, ${group.name}, ${group.externalId}, ${group.description})
    returning *`;
  return row;
}

export async function updateGroup(
  sql: Queryable,
  workspaceId: string,
  id: string,
  changes: Partial<{ name: string; externalId: string | null; description: string | null }>,
): Promise<GroupRow | undefined> {
  const values: Record<string, unknown> = {};
  if (changes.name !== undefined) values.name = changes.name;
  if (changes.externalId !== undefined) values.external_id = changes.externalId;
  if (changes.description !== undefined) values.description = changes.description;
  if (Object.keys(values).length === 0) return findGroup(sql, workspaceId, id);
  const [row] = await sql<GroupRow[]>`
    /* updateGroup */
    update keyword_groups set ${sql(values)} where id = ${id} and workspace_id = ${workspaceId} returning *`;
  return row;
}

export async function findGroup(sql: Queryable, workspaceId: string, id: string): Promise<GroupRow | undefined> {
  const [row] = await sql<GroupRow[]>`
    /* findGroup */
    select * from keyword_groups where id = ${id} and workspace_id = ${workspaceId}`;
  return row;
}

export async function findGroupsByIds(sql: Queryable, ids: readonly string[]): Promise<GroupRow[]> {
  return sql<GroupRow[]>`
    /* findGroupsByIds */
    select * from keyword_groups where id = any(${sql.array(ids as string[])})`;
}

/**
 * The group each keyword is in now, by keyword id: a keyword read just
 * before its group was deleted names a group that is gone, and the delete
 * moved it to the default group in the same transaction.
 */
export async function findCurrentGroupsOfKeywords(sql: Queryable, workspaceId: string, keywordIds: readonly string[]): Promise<(GroupRow & { keywordId: string })[]> {
  return sql<(GroupRow & { keywordId: string })[]>`
    /* findCurrentGroupsOfKeywords */
    select keyword_groups.*, keywords.id as keyword_id from keywords
    join keyword_groups on keyword_groups.id = keywords.group_id
    where keywords.workspace_id = ${workspaceId} and keywords.id = any(${sql.array(keywordIds as string[])})`;
}

/** The workspace's groups, the default one first, then in creation order. */
export async function listGroups(sql: Queryable, workspaceId: string): Promise<GroupRow[]> {
  return sql<GroupRow[]>`
    /* listGroups */
    select * from keyword_groups where workspace_id = ${workspaceId}
    order by is_default desc, id`;
}

/**
 * The group a keyword is about to join, locked against deletion until the
 * transaction ends: a group being deleted is waited for, then not found.
 */
export async function findGroupToJoin(sql: Queryable, workspaceId: string, id: string): Promise<GroupRow | undefined> {
  const [row] = await sql<GroupRow[]>`
    /* findGroupToJoin */
    select * from keyword_groups where id = ${id} and workspace_id = ${workspaceId} for key share`;
  return row;
}

/** Locks the group row: keywords cannot be added to it while it is being deleted. */
export async function findGroupForUpdate(sql: Queryable, workspaceId: string, id: string): Promise<GroupRow | undefined> {
  const [row] = await sql<GroupRow[]>`
    /* findGroupForUpdate */
    select * from keyword_groups where id = ${id} and workspace_id = ${workspaceId} for update`;
  return row;
}

export async function countKeywordsByGroup(sql: Queryable, groupIds: readonly string[]): Promise<Map<string, number>> {
  const rows = await sql<{ groupId: string; keywordCount: number }[]>`
    /* countKeywordsByGroup */
    select group_id, count(*)::int as keyword_count from keywords
    where group_id = any(${sql.array(groupIds as string[])}) group by group_id`;
  return new Map(rows.map((row) => [row.groupId, row.keywordCount]));
}

/** Terms of `fromGroupId` that `toGroupId` already tracks, whatever the case (a group tracks a term once, spec 2.2). */
export async function termsClashingOnMove(sql: Queryable, fromGroupId: string, toGroupId: string): Promise<string[]> {
  const rows = await sql<{ term: string }[]>`
    /* termsClashingOnMove */
    select moving.term from keywords moving
    join keywords staying on staying.group_id = ${toGroupId} and lower(staying.term) = lower(moving.term)
    where moving.group_id = ${fromGroupId}
    order by moving.id`;
  return rows.map((row) => row.term);
}

/** Moves every keyword of a group to another group of the same workspace. */
export async function moveGroupKeywords(sql: Queryable, fromGroupId: string, toGroupId: string): Promise<void> {
  await sql`
    /* moveGroupKeywords */
    update keywords set group_id = ${toGroupId}, updated_at = now() where group_id = ${fromGroupId}`;
}

/** Deletes a group that holds no keywords; the default group is never deleted. */
export async function deleteGroup(sql: Queryable, workspaceId: string, id: string): Promise<boolean> {
  const rows = await sql`
    /* deleteGroup */
    delete from keyword_groups where id = ${id} and workspace_id = ${workspaceId} and not is_default returning id`;
  return rows.length > 0;
}
