import 'reflect-metadata';
import { Arg, Ctx, Field, ID, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { domainError, notFound } from '../domain-error.ts';
import { requireAuth } from '../require-auth.ts';
import type { SubgraphContext } from '../subgraph-server.ts';
import { ApiKeyScope } from './api-key.ts';
import { findMemberRole } from './member-store.ts';
import { type ConnectedAppRow, findConnectedApp, listConnectedApps, revokeGrant } from './oauth-grant-store.ts';
import { User } from './workspace.ts';

@ObjectType({ description: 'An application a user let act on this workspace through OAuth: one consent and every token issued under it' })
export class ConnectedApp {
  @Field(() => ID, { description: 'The grant id (`oag_…`)' }) id!: string;
  @Field(() => ID, { description: "The application's OAuth client_id" }) clientId!: string;
  @Field(() => String, { nullable: true, description: 'The name the application registered with (its own words, not checked)' }) clientName!: string | null;
  @Field(() => String, { nullable: true, description: 'The home page the application registered with' }) clientUri!: string | null;
  @Field(() => User, { description: 'The person it acts for' }) user!: User;
  @Field(() => ApiKeyScope, { description: '`read` (queries only) or `write`' }) scope!: ApiKeyScope;
  @Field(() => Date) connectedAt!: Date;
  @Field(() => Date, { nullable: true, description: 'When one of its tokens last authenticated a request, updated at most once a minute' }) lastUsedAt!: Date | null;
}

const toConnectedApp = (row: ConnectedAppRow): ConnectedApp => ({
  id: row.id,
  clientId: row.clientId,
  clientName: row.clientName,
  clientUri: row.clientUri,
  user: { id: row.userId, name: row.userName, email: row.userEmail },
  scope: row.scope as ApiKeyScope,
  connectedAt: row.createdAt,
  lastUsedAt: row.lastUsedAt,
});

@Resolver(() => ConnectedApp)
export class ConnectedAppResolver {
  @Query(() => [ConnectedApp], { description: 'Applications connected to this workspace through OAuth that can still act, oldest first' })
  async connectedApps(@Ctx() ctx: SubgraphContext): Promise<ConnectedApp[]> {
    return (await listConnectedApps(ctx.sql, requireAuth(ctx).workspaceId, ctx.clock.now())).map(toConnectedApp);
  }

  @Mutation(() => ConnectedApp, {
    description: 'Disconnects an application: every token of the grant stops working at once. The user who connected it, or an owner or admin, may',
  })
  async revokeConnectedApp(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<ConnectedApp> {
    const auth = requireAuth(ctx);
    const app = await findConnectedApp(ctx.sql, auth.workspaceId, id);
    if (!app) throw notFound('Connected app');
    // A person's delegation is ended by that person or by those who manage the team; an API key stands for no one.
    if (!auth.userId) throw domainError('forbidden', 'Disconnecting an app needs a signed-in user, not an API key');
    if (app.userId !== auth.userId) {
      const role = await findMemberRole(ctx.sql, auth.workspaceId, auth.userId);
      if (role !== 'owner' && role !== 'admin') throw domainError('forbidden', "Only an owner or an admin may disconnect another member's app");
    }
    await revokeGrant(ctx.sql, app.id, ctx.clock.now());
    return toConnectedApp(app);
  }
}
