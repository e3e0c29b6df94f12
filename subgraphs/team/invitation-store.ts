import type { Queryable, Sql } from '../../runtime/database.ts';
import { newId } from '../../runtime/ids.ts';
import { domainError, notFound } from '../domain-error.ts';
import { addMember, findMemberRole, type MemberRole } from './member-store.ts';
import { hashSecretToken, newSecretToken } from './secret-token.ts';
import { findOrCreateUser, normaliseEmail, type UserRow } from './user-store.ts';

/** How long an invitation may be accepted (spec 4.5: expired after 7 days). */
export const invitationLifetimeDays = 7;

export type InvitationStatus = 'pending' | 'accepted' | 'declined';
/** What the API shows: a pending invitation past its `expiresAt` is `expired`. */
export type InvitationState = InvitationStatus | 'expired';

export interface InvitationRow {
  id: string;
  workspaceId: string;
  workspaceName: string;
  email: string;
  role: MemberRole;
  status: InvitationStatus;
  invitedBy: string | null;
  inviterName: string | null;
  inviterEmail: string | null;
  createdAt: Date;
  expiresAt: Date;
  respondedAt: Date | null;
}

/** Expiry is judged when read, with the caller's clock: no job has to flip a row. */
export const invitationState = (row: Pick<InvitationRow, 'status' | 'expiresAt'>, now: Date): InvitationState =>
  row.status === 'pending' && row.expiresAt <= now ? 'expired' : row.status;

const invitationColumns = (sql: Queryable) => sql`
  i.id, i.workspace_id, w.name as workspace_name, i.email, i.role, i.status, i.invited_by,
  u.name as inviter_name, u.email as inviter_email, i.created_at, i.expires_at, i.responded_at`;

const invitationSource = (sql: Queryable) => sql`
  invitations i join workspaces w on w.id = i.workspace_id left join users u on u.id = i.invited_by`;

/** The workspace's invitations still waiting for an answer and not expired, oldest first. */
export async function listPendingInvitations(sql: Queryable, workspaceId: string, now: Date): Promise<InvitationRow[]> {
  return sql<InvitationRow[]>`
    /* listPendingInvitations */
    select ${invitationColumns(sql)} from ${invitationSource(sql)}
    where i.workspace_id = ${workspaceId} and i.status = 'pending' and i.expires_at > ${now}
    order by i.created_at, i.id`;
}

async function findInvitation(sql: Queryable, workspaceId: string, id: string): Promise<InvitationRow | undefined> {
  const [row] = await sql<InvitationRow[]>`
    /* findInvitation */
    select ${invitationColumns(sql)} from ${invitationSource(sql)} where i.id = ${id} and i.workspace_id = ${workspaceId}`;
  return row;
}

export async function findInvitationByToken(sql: Queryable, token: string): Promise<InvitationRow | undefined> {
  const [row] = await sql<InvitationRow[]>`
    /* findInvitationByToken */
    select ${invitationColumns(sql)} from ${invitationSource(sql)} where i.token_hash = ${hashSecretToken(token)}`;
  return row;
}

/**
 * The acting person's role, which must be owner or admin; only an owner
 * may touch an invitation to the owner role (`forbidden` to send one,
 * `protected_user` to withdraw or replace one, as with owners themselves).
 */
async function managerRole(sql: Queryable, workspaceId: string, actorUserId: string, action: string): Promise<MemberRole> {
  const role = await findMemberRole(sql, workspaceId, actorUserId);
  if (role !== 'owner' && role !== 'admin') throw domainError('forbidden', `Only an owner or an admin of this workspace may ${action}`);
  return role;
}

/**
 * Sends an invitation: checks the rules, replaces a pending invitation to
 * the same address (its link stops working), stores the new one with only
 * the hash of its token, and hands the token to `mail` before committing,
 * so an e-mail that cannot be sent leaves nothing behind. Invitations to one
 * address of one workspace take turns (an advisory lock), so two sent at
 * once leave one.
 */
export async function createInvitation(
  sql: Sql,
  input: { workspaceId: string; actorUserId: string; email: string; role: MemberRole; now: Date },
  mail: (invitation: InvitationRow, token: string) => Promise<void>,
): Promise<InvitationRow> {
  const email = normaliseEmail(input.email);
  return sql.begin(async (tx) => {
    const actorRole = await managerRole(tx, input.workspaceId, input.actorUserId, 'invite people');
    if (input.role === 'owner' && actorRole !== 'owner') throw domainError('forbidden', 'Only an owner may invite another owner');
    await tx`/* lockInvitationAddress */ select pg_advisory_xact_lock(hashtextextended(${`${input.workspaceId} ${email}`}, 0))`;
    const [member] = await tx`
      /* findMemberByEmail */
      select 1 from workspace_members m join users u on u.id = m.user_id
      where m.workspace_id = ${input.workspaceId} and u.email = ${email}`;
    if (member) throw domainError('already_member', `${email} is already a member of this workspace`, { field: 'email' });
    const [replaced] = await tx<{ role: MemberRole }[]>`
      /* pendingInvitationTo */
      select role from invitations where workspace_id = ${input.workspaceId} and email = ${email} and status = 'pending'`;
    if (replaced?.role === 'owner' && actorRole !== 'owner') throw domainError('protected_user', 'An admin cannot replace an invitation to the owner role');
    await tx`/* replacePendingInvitation */ delete from invitations where workspace_id = ${input.workspaceId} and email = ${email} and status = 'pending'`;
    const token = newSecretToken();
    const id = newId('inv', input.now.getTime());
    await tx`
      /* insertInvitation */
      insert into invitations (id, workspace_id, email, role, invited_by, token_hash, created_at, expires_at)
      values (${id}, ${input.workspaceId}, ${email}, ${input.role}, ${input.actorUserId}, ${hashSecretToken(token)},
              ${input.now}, ${input.now}::timestamptz + make_interval(days => ${invitationLifetimeDays}))`;
    const invitation = (await findInvitation(tx, input.workspaceId, id))!;
    await mail(invitation, token);
    return invitation;
  }) as Promise<InvitationRow>;
}

/**
 * Withdraws an invitation that has not been answered (expired or not): it is
 * deleted and its link stops working. Accepted and declined ones are history
 * and cannot be withdrawn (`not_found`, as an id of another workspace is).
 */
export async function withdrawInvitation(sql: Sql, input: { workspaceId: string; actorUserId: string; id: string }): Promise<InvitationRow> {
  return sql.begin(async (tx) => {
    const actorRole = await managerRole(tx, input.workspaceId, input.actorUserId, 'withdraw invitations');
    const [invitation] = await tx<InvitationRow[]>`
      /* lockInvitation */
      select ${invitationColumns(tx)} from ${invitationSource(tx)}
      where i.id = ${input.id} and i.workspace_id = ${input.workspaceId} and i.status = 'pending'
      for update of i`;
    if (!invitation) throw notFound('Pending invitation');
    if (invitation.role === 'owner' && actorRole !== 'owner') throw domainError('protected_user', 'An admin cannot withdraw an invitation to the owner role');
    await tx`/* deleteInvitation */ delete from invitations where id = ${invitation.id}`;
    return invitation;
  }) as Promise<InvitationRow>;
}

/**
 * Why a mailed token opens nothing (`invalid_token`): it is unknown (or
 * withdrawn), answered, or expired. An answered or expired invitation is
 * still there but no longer open: REST answers it 410 Gone rather than the
 * 401 of a link that names nothing, so a client can tell the two apart.
 */
export const invalidInvitationToken = (state: Exclude<InvitationState, 'pending'> | 'unknown') =>
  state === 'unknown'
    ? domainError('invalid_token', 'This invitation link is unknown or was withdrawn')
    : domainError(
        'invalid_token',
        state === 'expired' ? 'This invitation has expired; ask for a new one' : `This invitation was already ${state}`,
        { httpStatus: 410 },
      );

/**
 * Answers the invitation a mailed token names, once: `accept` makes the
 * address's user (created when there is none) a member with the invited
 * role; `decline` only records the answer. `signedInUserId` is the person
 * already signed in, if any: the token proves the invited address, so a
 * person signed in with another one may not answer for it (`forbidden`).
 * An unknown, withdrawn, answered or expired invitation is `invalid_token`.
 */
export async function answerInvitation(
  sql: Sql,
  input: { token: string; answer: 'accept' | 'decline'; signedInUserId: string | null; now: Date },
): Promise<{ invitation: InvitationRow; user: UserRow | null }> {
  return sql.begin(async (tx) => {
    const [invitation] = await tx<InvitationRow[]>`
      /* lockInvitationByToken */
      select ${invitationColumns(tx)} from ${invitationSource(tx)}
      where i.token_hash = ${hashSecretToken(input.token)}
      for update of i`;
    if (!invitation) throw invalidInvitationToken('unknown');
    const state = invitationState(invitation, input.now);
    if (state !== 'pending') throw invalidInvitationToken(state);
    if (input.signedInUserId) {
      const [signedIn] = await tx<{ email: string }[]>`/* signedInEmail */ select email from users where id = ${input.signedInUserId}`;
      if (signedIn?.email !== invitation.email) {
        throw domainError('forbidden', `This invitation is for ${invitation.email}; sign out first, or open it signed in with that address`);
      }
    }
    const user = input.answer === 'accept' ? await findOrCreateUser(tx, { email: invitation.email }) : null;
    // Someone who joined meanwhile keeps the role they have.
    if (user) await addMember(tx, { workspaceId: invitation.workspaceId, userId: user.id, role: invitation.role });
    const status: InvitationStatus = input.answer === 'accept' ? 'accepted' : 'declined';
    await tx`
      /* answerInvitation */
      update invitations set status = ${status}, responded_at = ${input.now}, accepted_by = ${user?.id ?? null}
      where id = ${invitation.id}`;
    return { invitation: { ...invitation, status, respondedAt: input.now }, user };
  }) as Promise<{ invitation: InvitationRow; user: UserRow | null }>;
}
