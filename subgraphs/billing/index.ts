import type { GraphQLSchema } from 'graphql';
import { buildTypeGraphQLSubgraph } from '../type-graphql-subgraph.ts';
import { TopUpResolver } from './top-up.ts';
import { UsageResolver } from './usage.ts';
import { WalletResolver, Workspace, WorkspaceWalletResolver, resolveWorkspaceReference } from './wallet.ts';

/** The billing subgraph: wallet, top-ups, usage, keyword cost and caps accounting. */
export function buildBillingSchema(): Promise<GraphQLSchema> {
  return buildTypeGraphQLSubgraph({
    resolvers: [WalletResolver, WorkspaceWalletResolver, UsageResolver, TopUpResolver],
    orphanedTypes: [Workspace],
    referenceResolvers: { Workspace: { __resolveReference: resolveWorkspaceReference } },
  });
}
