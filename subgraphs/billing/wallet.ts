import 'reflect-metadata';
import { Ctx, Directive, Field, FieldResolver, ID, Int, ObjectType, Query, Resolver, Root } from 'type-graphql';
import { requireAuth } from '../require-auth.ts';
import type { SubgraphContext } from '../subgraph-server.ts';
import { walletBalanceCents } from './wallet-store.ts';

@ObjectType({ description: "The workspace's prepaid wallet (spec 2.11); money in integer USD cents" })
export class Wallet {
  @Field(() => Int) balanceCents!: number;
}

/** The team subgraph's Workspace, extended here with its wallet. */
@ObjectType()
@Directive('@key(fields: "id")')
export class Workspace {
  @Field(() => ID) id!: string;
}

async function loadWallet(ctx: SubgraphContext, workspaceId: string): Promise<Wallet> {
  return { balanceCents: await walletBalanceCents(ctx.sql, workspaceId) };
}

@Resolver(() => Workspace)
export class WorkspaceWalletResolver {
  @FieldResolver(() => Wallet)
  wallet(@Root() workspace: Workspace, @Ctx() ctx: SubgraphContext): Promise<Wallet> {
    requireAuth(ctx);
    return loadWallet(ctx, workspace.id);
  }
}

@Resolver(() => Wallet)
export class WalletResolver {
  @Query(() => Wallet, { description: "The caller's wallet" })
  wallet(@Ctx() ctx: SubgraphContext): Promise<Wallet> {
    return loadWallet(ctx, requireAuth(ctx).workspaceId);
  }
}

export function resolveWorkspaceReference(ref: { id: string }, ctx: SubgraphContext): Workspace | null {
  return requireAuth(ctx).workspaceId === ref.id ? { id: ref.id } : null;
}
