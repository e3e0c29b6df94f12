import 'reflect-metadata';
import { Arg, Ctx, Field, ID, Mutation, ObjectType, Query, Resolver, registerEnumType } from 'type-graphql';
import { z } from 'zod';
import { parseInput } from '../validate-input.ts';
import { requireAuth } from '../require-auth.ts';
import type { SubgraphContext } from '../subgraph-server.ts';
import { requireSignedInUser } from './signed-in-user.ts';
import { changeMemberRole, listMembers, type MemberRow, removeMember } from './member-store.ts';

export enum MemberRole {
  owner = 'owner',
  admin = 'admin',
  member = 'member',
}
registerEnumType(MemberRole, { name: 'MemberRole', description: 'Owners and admins manage members; only an owner may remove an owner' });

@ObjectType({ description: 'A person in the workspace' })
export class Member {
  @Field(() => ID, { description: 'The user id (`usr_…`)' }) id!: string;
  @Field(() => String) email!: string;
  @Field(() => String) name!: string;
  @Field(() => MemberRole) role!: MemberRole;
  @Field(() => Date) joinedAt!: Date;
}

export const memberRoleInput = z.strictObject({ role: z.enum(['owner', 'admin', 'member']).optional() });

const toMember = (row: MemberRow): Member => ({ ...row, role: row.role as MemberRole });

/** Only a person changes the team: an API key is refused whichever member it names. */
const requireTeamChanger = (ctx: SubgraphContext) => requireSignedInUser(ctx, 'Changing members needs a signed-in owner or admin, not an API key');

@Resolver(() => Member)
export class MemberResolver {
  @Query(() => [Member], { description: "The workspace's members, in the order they joined" })
  async members(@Ctx() ctx: SubgraphContext): Promise<Member[]> {
    return (await listMembers(ctx.sql, requireAuth(ctx).workspaceId)).map(toMember);
  }

  @Mutation(() => Member, { description: "Changes a member's role; needs a signed-in owner or admin, and the last owner stays one" })
  async changeMemberRole(
    @Arg('id', () => ID) id: string,
    @Arg('role', () => MemberRole, { nullable: true }) role: MemberRole | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<Member> {
    const auth = requireTeamChanger(ctx);
    const valid = parseInput(memberRoleInput, role ? { role } : {});
    return toMember(await changeMemberRole(ctx.sql, { workspaceId: auth.workspaceId, actorUserId: auth.userId, memberId: id, role: valid.role }));
  }

  @Mutation(() => Member, { description: 'Removes a member; needs a signed-in owner or admin, and the last owner stays' })
  async removeMember(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<Member> {
    const auth = requireTeamChanger(ctx);
    return toMember(await removeMember(ctx.sql, { workspaceId: auth.workspaceId, actorUserId: auth.userId, memberId: id }));
  }
}
