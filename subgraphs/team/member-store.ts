import type postgres from 'postgres';
import type { Queryable, Sql } from '../../runtime/database.ts';
import { domainError, notFound } from '../domain-error.ts';

export type MemberRole = 'owner' | 'admin' | 'member';

export interface MemberRow {
  id: string;
  email: string;
  name: string;
  role: MemberRole;
  joinedAt: Date;
}

export async function addMember(sql: Queryable, input: { workspaceId: string; userId: string; role: MemberRole }): Promise<void> {
  await sql`
    /* addMember */
    insert into workspace_members (workspace_id, user_id, role)
    values (${input.workspaceId}, ${input.userId}, ${input.role})
    on conflict (workspace_id, user_id) do nothing`;
}

export async function listMembers(sql: Queryable, workspaceId: string): Promise<MemberRow[]> {
  return sql<MemberRow[]>`
    /* listMembers */
    select users.id, users.email, users.name, workspace_members.role, workspace_members.joined_at
    from workspace_members join users on users.id = workspace_members.user_id
    where workspace_members.workspace_id = ${workspaceId}
    order by workspace_members.joined_at, users.id`;
}

export interface MembershipRow {
  workspaceId: string;
  name: string;
  role: MemberRole;
}

/** The workspaces a user belongs to, in the order joined (the first is where a sign-in without one lands). */
export async function listMemberships(sql: Queryable, userId: string): Promise<MembershipRow[]> {
  return sql<MembershipRow[]>`
    /* listMemberships */
    select workspaces.id as workspace_id, workspaces.name, workspace_members.role
    from workspace_members join workspaces on workspaces.id = workspace_members.workspace_id
    where workspace_members.user_id = ${userId}
    order by workspace_members.joined_at, workspaces.id`;
}

export async function findMemberRole(sql: Queryable, workspaceId: string, userId: string): Promise<MemberRole | undefined> {
  const [row] = await sql<{ role: MemberRole }[]>`
    /* findMemberRole */
    select role from workspace_members where workspace_id = ${workspaceId} and user_id = ${userId}`;
  return row?.role;
}

/** The workspaces a user belongs to, with the role there, in the order joined: what a consent page offers. */
export async function workspacesOfUser(sql: Queryable, userId: string): Promise<{ id: string; name: string; role: MemberRole }[]> {
  return sql<{ id: string; name: string; role: MemberRole }[]>`
    /* workspacesOfUser */
    select workspaces.id, workspaces.name, workspace_members.role
    from workspace_members join workspaces on workspaces.id = workspace_members.workspace_id
    where workspace_members.user_id = ${userId}
    order by workspace_members.joined_at, workspaces.id`;
}

/**
 * The workspace's members locked in a fixed order (so two owners changing
 * each other at once cannot both succeed), with the acting and the targeted
 * member: only an owner or an admin may change members, and a user of
 * another workspace is as unknown here as one that does not exist.
 */
async function lockMemberChange(
  tx: postgres.TransactionSql<{}>,
  input: { workspaceId: string; actorUserId: string; memberId: string },
  action: string,
) {
  const rows = await tx<{ userId: string; role: MemberRole }[]>`
    /* lockWorkspaceMembers */
    select user_id, role from workspace_members where workspace_id = ${input.workspaceId}
    order by user_id for update`;
  const actor = rows.find((row) => row.userId === input.actorUserId);
  if (!actor || actor.role === 'member') throw domainError('forbidden', `Only an owner or an admin of this workspace may ${action}`);
  const target = rows.find((row) => row.userId === input.memberId);
  if (!target) throw notFound('Member');
  return { rows, actor, target };
}

/**
 * Removes `memberId` from the workspace on behalf of `actorUserId`. Only an
 * owner or an admin may; an admin may not remove an owner; the last owner
 * stays. The workspace's member rows are locked first, so two owners removing
 * each other at once cannot both succeed and leave the workspace ownerless.
 * A user of another workspace is as unknown here as one that does not exist.
 */
export async function removeMember(
  sql: Sql,
  input: { workspaceId: string; actorUserId: string; memberId: string },
): Promise<MemberRow> {
  return sql.begin(async (tx) => {
    const { rows, actor, target } = await lockMemberChange(tx, input, 'remove members');
    if (target.role === 'owner' && actor.role !== 'owner') throw domainError('protected_user', 'An admin cannot remove an owner');
    if (target.role === 'owner' && rows.filter((row) => row.role === 'owner').length === 1) {
      throw domainError('last_owner', 'A workspace keeps at least one owner');
    }
    const [removed] = await tx<MemberRow[]>`
      /* removeMember */
      with removed as (
        delete from workspace_members where workspace_id = ${input.workspaceId} and user_id = ${input.memberId}
        returning user_id, role, joined_at
      )
      select users.id, users.email, users.name, removed.role, removed.joined_at
      from removed join users on users.id = removed.user_id`;
    return removed;
  }) as Promise<MemberRow>;
}

/**
 * Gives `memberId` a new role on behalf of `actorUserId`, under the rules of
 * `removeMember`: owners and admins only; only an owner may change an owner
 * or make one; the last owner stays an owner.
 */
export async function changeMemberRole(
  sql: Sql,
  input: { workspaceId: string; actorUserId: string; memberId: string; role?: MemberRole },
): Promise<MemberRow> {
  return sql.begin(async (tx) => {
    const { rows, actor, target } = await lockMemberChange(tx, input, 'change roles');
    if (target.role === 'owner' && actor.role !== 'owner') throw domainError('protected_user', "An admin cannot change an owner's role");
    // No role given changes nothing, as an empty PATCH does elsewhere.
    const role = input.role ?? target.role;
    if (role === 'owner' && target.role !== 'owner' && actor.role !== 'owner') throw domainError('forbidden', 'Only an owner may make another owner');
    if (target.role === 'owner' && role !== 'owner' && rows.filter((row) => row.role === 'owner').length === 1) {
      throw domainError('last_owner', 'A workspace keeps at least one owner');
    }
    const [changed] = await tx<MemberRow[]>`
      /* changeMemberRole */
      with changed as (
        update workspace_members set role = ${role}
        where workspace_id = ${input.workspaceId} and user_id = ${input.memberId}
        returning user_id, role, joined_at
      )
      select users.id, users.email, users.name, changed.role, changed.joined_at
      from changed join users on users.id = changed.user_id`;
    return changed;
  }) as Promise<MemberRow>;
}

/** The owners of these workspaces who take owner e-mails. */
export async function listOwnersTakingEmails(sql: Queryable, workspaceIds: readonly string[]): Promise<{ workspaceId: string; userId: string }[]> {
  if (workspaceIds.length === 0) return [];
  return sql<{ workspaceId: string; userId: string }[]>`
    /* listOwnersTakingEmails */
    select m.workspace_id, m.user_id from workspace_members m join users u on u.id = m.user_id
    where m.workspace_id = any(${sql.array(workspaceIds as string[])}) and m.role = 'owner' and u.owner_emails
    order by m.workspace_id, m.joined_at, m.user_id`;
}
