import type { GraphQLSchema } from 'graphql';
import type { SubgraphName } from '../runtime/config.ts';
import { buildBillingSchema } from './billing/index.ts';
import { buildKeywordsSchema } from './keywords/index.ts';
import { buildMentionsSchema } from './mentions/index.ts';
import { buildTeamSchema } from './team/index.ts';

/** Each subgraph's executable schema, by the name the supergraph knows it by. */
export const subgraphSchemas: Record<SubgraphName, () => GraphQLSchema | Promise<GraphQLSchema>> = {
  keywords: buildKeywordsSchema,
  mentions: buildMentionsSchema,
  billing: buildBillingSchema,
  team: buildTeamSchema,
};
