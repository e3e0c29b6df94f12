import 'reflect-metadata';
import { Arg, Ctx, Field, ID, InputType, Mutation, ObjectType, Query, Resolver, registerEnumType } from 'type-graphql';
import { z } from 'zod';
import { publicUrl } from '../../runtime/config.ts';
import { requireAuth } from '../require-auth.ts';
import type { SubgraphContext } from '../subgraph-server.ts';
import { parseInput } from '../validate-input.ts';
import { invitationEmail } from './email-messages.ts';
import {
  answerInvitation,
  createInvitation,
  findInvitationByToken,
  invalidInvitationToken,
  type InvitationRow,
  invitationState,
  listPendingInvitations,
  withdrawInvitation,
} from './invitation-store.ts';
import { requireMailSettings, sendMailNow } from './mailer.ts';
import { MemberRole } from './member.ts';
import { SignedInSession, startSession } from './session.ts';
import { requireSignedInUser } from './signed-in-user.ts';
import { emailAddress } from './user.ts';

export enum InvitationStateName {
  pending = 'pending',
  accepted = 'accepted',
  declined = 'declined',
  expired = 'expired',
}
registerEnumType(InvitationStateName, {
  name: 'InvitationState',
  description: '`pending` until answered; `expired` once pending for 7 days; `accepted` (the invitee is a member) or `declined`',
});

@ObjectType({ description: 'Who sent an invitation; null once that user is gone' })
export class Inviter {
  @Field(() => ID, { description: 'The user id (`usr_…`)' }) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String) email!: string;
}

@ObjectType({ description: 'An invitation to join the workspace, as its owners and admins see it (spec 3.5.1, 4.5)' })
export class Invitation {
  @Field(() => ID, { description: '`inv_…`' }) id!: string;
  @Field(() => String, { description: 'The invited address, lower-cased' }) email!: string;
  @Field(() => MemberRole, { description: 'The role the invitee gets on accepting' }) role!: MemberRole;
  @Field(() => InvitationStateName) state!: InvitationStateName;
  @Field(() => Inviter, { nullable: true }) invitedBy!: Inviter | null;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date, { description: 'Seven days after sending: a pending invitation expires then' }) expiresAt!: Date;
}

@ObjectType()
export class InvitingWorkspace {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
}

@ObjectType({ description: 'An invitation as its invitee sees it through the mailed token' })
export class ReceivedInvitation {
  @Field(() => ID) id!: string;
  @Field(() => InvitingWorkspace) workspace!: InvitingWorkspace;
  @Field(() => String) email!: string;
  @Field(() => MemberRole) role!: MemberRole;
  @Field(() => InvitationStateName) state!: InvitationStateName;
  @Field(() => Inviter, { nullable: true }) invitedBy!: Inviter | null;
  @Field(() => Date) expiresAt!: Date;
}

@ObjectType({ description: 'An accepted invitation and the session it signed the invitee in with' })
export class AcceptedInvitation {
  @Field(() => ReceivedInvitation) invitation!: ReceivedInvitation;
  @Field(() => SignedInSession) session!: SignedInSession;
}

@InputType()
export class InviteMemberInput {
  @Field(() => String) email!: string;
  @Field(() => MemberRole, { nullable: true, description: 'Default `member`; only an owner may invite an owner' }) role?: MemberRole | null;
}

export const inviteMemberInput = z.strictObject({
  email: emailAddress,
  role: z
    .enum(['owner', 'admin', 'member'])
    .nullish()
    .transform((role) => role ?? 'member')
    .meta({ description: 'The role on accepting; default `member`. Only an owner may invite an owner' }),
});

/** The dashboard page an invitation e-mail links to; it shows the invitation and accepts or declines it with the token. */
export const invitationPagePath = '/invitation';

const inviter = (row: InvitationRow): Inviter | null =>
  row.invitedBy && row.inviterName !== null && row.inviterEmail !== null ? { id: row.invitedBy, name: row.inviterName, email: row.inviterEmail } : null;

const toInvitation = (row: InvitationRow, now: Date): Invitation => ({
  id: row.id,
  email: row.email,
  role: row.role as MemberRole,
  state: invitationState(row, now) as InvitationStateName,
  invitedBy: inviter(row),
  createdAt: row.createdAt,
  expiresAt: row.expiresAt,
});

const toReceivedInvitation = (row: InvitationRow, now: Date): ReceivedInvitation => ({
  id: row.id,
  workspace: { id: row.workspaceId, name: row.workspaceName },
  email: row.email,
  role: row.role as MemberRole,
  state: invitationState(row, now) as InvitationStateName,
  invitedBy: inviter(row),
  expiresAt: row.expiresAt,
});

/** The person a public invitation route runs for: a session that proved itself with its CSRF token, or nobody. */
const signedInUserId = (ctx: SubgraphContext) => ctx.auth?.userId ?? null;

@Resolver(() => Invitation)
export class InvitationResolver {
  @Query(() => [Invitation], { description: 'Invitations waiting for an answer (not accepted, declined or expired), oldest first' })
  async invitations(@Ctx() ctx: SubgraphContext): Promise<Invitation[]> {
    const now = ctx.clock.now();
    return (await listPendingInvitations(ctx.sql, requireAuth(ctx).workspaceId, now)).map((row) => toInvitation(row, now));
  }

  @Mutation(() => Invitation, {
    description:
      'Invites an address by e-mail; needs a signed-in owner or admin. A pending invitation to the same address is replaced (its link stops working)',
  })
  async inviteMember(@Arg('input', () => InviteMemberInput) input: InviteMemberInput, @Ctx() ctx: SubgraphContext): Promise<Invitation> {
    const auth = requireSignedInUser(ctx, 'Inviting people needs a signed-in owner or admin, not an API key');
    const valid = parseInput(inviteMemberInput, input);
    const now = ctx.clock.now();
    const row = await createInvitation(
      ctx.sql,
      { workspaceId: auth.workspaceId, actorUserId: auth.userId, email: valid.email, role: valid.role, now },
      // Asked only once the rules pass, so a plain member hears `forbidden`, not that e-mail is off.
      (invitation, token) =>
        sendMailNow(
          requireMailSettings(ctx.env),
          { to: invitation.email, ...invitationEmail(invitation, `${publicUrl(ctx.env)}${invitationPagePath}?token=${encodeURIComponent(token)}`) },
          'email',
          'invitation e-mail',
        ),
    );
    return toInvitation(row, now);
  }

  @Mutation(() => Invitation, { description: 'Withdraws an invitation not yet answered; its link stops working. Needs a signed-in owner or admin' })
  async withdrawInvitation(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<Invitation> {
    const auth = requireSignedInUser(ctx, 'Withdrawing invitations needs a signed-in owner or admin, not an API key');
    return toInvitation(await withdrawInvitation(ctx.sql, { workspaceId: auth.workspaceId, actorUserId: auth.userId, id }), ctx.clock.now());
  }

  @Query(() => ReceivedInvitation, { description: 'The invitation a mailed token names, in any state (public: the token is the credential)' })
  async receivedInvitation(@Arg('token', () => String) token: string, @Ctx() ctx: SubgraphContext): Promise<ReceivedInvitation> {
    const row = await findInvitationByToken(ctx.sql, token);
    if (!row) throw invalidInvitationToken('unknown');
    return toReceivedInvitation(row, ctx.clock.now());
  }

  @Mutation(() => AcceptedInvitation, {
    description:
      'Accepts the invitation a mailed token names (public: the token proves the address). Makes the user if needed, adds the membership and signs the invitee in to the workspace; a person signed in with another address may not',
  })
  async acceptInvitation(@Arg('token', () => String) token: string, @Ctx() ctx: SubgraphContext): Promise<AcceptedInvitation> {
    const now = ctx.clock.now();
    const { invitation, user } = await answerInvitation(ctx.sql, { token: token, answer: 'accept', signedInUserId: signedInUserId(ctx), now });
    return { invitation: toReceivedInvitation(invitation, now), session: await startSession(ctx, user!, invitation.workspaceId) };
  }

  @Mutation(() => ReceivedInvitation, { description: 'Declines the invitation a mailed token names (public: the token is the credential)' })
  async declineInvitation(@Arg('token', () => String) token: string, @Ctx() ctx: SubgraphContext): Promise<ReceivedInvitation> {
    const now = ctx.clock.now();
    const { invitation } = await answerInvitation(ctx.sql, { token: token, answer: 'decline', signedInUserId: signedInUserId(ctx), now });
    return toReceivedInvitation(invitation, now);
  }
}
