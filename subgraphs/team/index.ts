import type { GraphQLSchema } from 'graphql';
import { buildTypeGraphQLSubgraph } from '../type-graphql-subgraph.ts';
import { ApiKeyResolver } from './api-key.ts';
import { WhoamiResolver, Workspace, resolveWorkspaceReference } from './workspace.ts';

/** The team subgraph: workspaces, API keys (and later members, channels). */
export function buildTeamSchema(): Promise<GraphQLSchema> {
  return buildTypeGraphQLSubgraph({
    resolvers: [WhoamiResolver, ApiKeyResolver],
    orphanedTypes: [Workspace],
    referenceResolvers: { Workspace: { __resolveReference: resolveWorkspaceReference } },
  });
}
