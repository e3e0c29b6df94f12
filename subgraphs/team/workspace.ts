import 'reflect-metadata';
import { Arg, Ctx, Directive, Field, ID, InputType, Mutation, ObjectType, Query, Resolver, registerEnumType } from 'type-graphql';
import { z } from 'zod';
import { domainError } from '../domain-error.ts';
import { requireAuth } from '../require-auth.ts';
import { parseInput, withoutNullKeys } from '../validate-input.ts';
import type { SubgraphContext } from '../subgraph-server.ts';
import { ApiKeyScope } from './api-key.ts';
import { MemberRole } from './member.ts';
import { listMemberships } from './member-store.ts';
import { findUser } from './user-store.ts';
import { findWorkspace, renameWorkspace } from './workspace-store.ts';

enum AuthKind {
  api_key = 'api_key',
  oauth = 'oauth',
  session = 'session',
}
registerEnumType(AuthKind, { name: 'AuthKind' });

@ObjectType({ description: 'The unit of isolation: every credential acts on one workspace' })
@Directive('@key(fields: "id")')
export class Workspace {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => Date) createdAt!: Date;
}

@ObjectType()
export class User {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true }) email!: string | null;
}

@ObjectType({ description: 'The credential behind the request' })
export class AuthInfo {
  @Field(() => AuthKind, { description: '`api_key`, `oauth` (an access token of an MCP sign-in) or `session` (the dashboard)' }) kind!: AuthKind;
  @Field(() => ApiKeyScope, { description: '`read` credentials may only read' }) scope!: ApiKeyScope;
  @Field(() => ID, { nullable: true, description: 'The API key’s id; null for other credentials' }) apiKeyId!: string | null;
  @Field(() => Date, { nullable: true, description: 'When the credential stops working; null when it does not expire' }) expiresAt!: Date | null;
}

@ObjectType({ description: 'A workspace the signed-in user belongs to, for switching to it' })
export class WorkspaceMembership {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => MemberRole, { description: "The user's role there" }) role!: MemberRole;
}

@ObjectType()
export class Whoami {
  @Field(() => Workspace) workspace!: Workspace;
  @Field(() => AuthInfo) auth!: AuthInfo;
  @Field(() => User, { nullable: true, description: 'The signed-in person; null for API keys' }) user!: User | null;
  @Field(() => [WorkspaceMembership], {
    description: 'Every workspace the signed-in person belongs to, the current one included, in the order joined; empty for API keys',
  })
  workspaces!: WorkspaceMembership[];
}

export async function resolveWorkspaceReference(ref: { id: string }, ctx: SubgraphContext): Promise<Workspace | null> {
  // Another workspace's id resolves to nothing, never to its data.
  if (requireAuth(ctx).workspaceId !== ref.id) return null;
  return (await findWorkspace(ctx.sql, ref.id)) ?? null;
}

/** A workspace's settings of its own; its name is shown in e-mails and in the dashboard. */
const workspacePatchInput = z.strictObject({ name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters').optional() });

@InputType({ description: 'Omitted fields stay' })
class WorkspacePatchInput {
  @Field(() => String, { nullable: true }) name?: string;
}

@Resolver(() => Whoami)
export class WhoamiResolver {
  @Mutation(() => Workspace, { description: 'Changes the workspace’s name: a setting like its filters and company profile, so any `write` credential may' })
  async updateWorkspace(@Arg('input', () => WorkspacePatchInput) input: WorkspacePatchInput, @Ctx() ctx: SubgraphContext): Promise<Workspace> {
    const auth = requireAuth(ctx);
    const { name } = parseInput(workspacePatchInput, withoutNullKeys({ ...input }));
    const workspace = name === undefined ? await findWorkspace(ctx.sql, auth.workspaceId) : await renameWorkspace(ctx.sql, auth.workspaceId, name);
    if (!workspace) throw domainError('unauthorized', 'The workspace of this credential no longer exists');
    return workspace;
  }

  @Query(() => Whoami, { description: 'Which workspace and credential this request acts as' })
  async whoami(@Ctx() ctx: SubgraphContext): Promise<Whoami> {
    const auth = requireAuth(ctx);
    const workspace = await findWorkspace(ctx.sql, auth.workspaceId);
    if (!workspace) throw domainError('unauthorized', 'The workspace of this credential no longer exists');
    return {
      workspace,
      auth: {
        kind: auth.kind as AuthKind,
        scope: auth.scope as ApiKeyScope,
        apiKeyId: auth.apiKeyId,
        expiresAt: auth.expiresAt ? new Date(auth.expiresAt) : null,
      },
      user: auth.userId ? ((await findUser(ctx.sql, auth.userId)) ?? null) : null,
      workspaces: auth.userId
        ? (await listMemberships(ctx.sql, auth.userId)).map((row) => ({ id: row.workspaceId, name: row.name, role: row.role as MemberRole }))
        : [],
    };
  }
}
