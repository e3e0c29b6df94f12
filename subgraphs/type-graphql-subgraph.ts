import 'reflect-metadata';
import { buildSubgraphSchema } from '@apollo/subgraph';

type GraphQLResolverMap = NonNullable<Extract<Parameters<typeof buildSubgraphSchema>[0], { resolvers?: unknown }>['resolvers']>;
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { type GraphQLSchema, lexicographicSortSchema, parse } from 'graphql';
import { buildSchema, createResolversMap, type NonEmptyArray } from 'type-graphql';
import { DateTimeScalar } from './date-time-scalar.ts';

const federationLink =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.6", import: ["@key", "@shareable", "@external"])\n';

/**
 * Turns TypeGraphQL resolvers into an Apollo Federation subgraph: TypeGraphQL
 * builds and prints the schema (with its `@key` directives), Apollo's
 * `buildSubgraphSchema` adds `_entities` and `_service`. Explicit
 * `() => Type` functions everywhere mean no decorator metadata is needed.
 */
export async function buildTypeGraphQLSubgraph(options: {
  resolvers: NonEmptyArray<Function>;
  orphanedTypes?: Function[];
  referenceResolvers: GraphQLResolverMap;
}): Promise<GraphQLSchema> {
  const schema = await buildSchema({
    resolvers: options.resolvers,
    orphanedTypes: options.orphanedTypes,
    scalarsMap: [{ type: Date, scalar: DateTimeScalar }],
    validate: false,
    skipCheck: true,
  });
  const resolvers = createResolversMap(schema) as GraphQLResolverMap;
  for (const [typeName, fields] of Object.entries(options.referenceResolvers)) {
    resolvers[typeName] = { ...(resolvers[typeName] as object), ...(fields as object) } as never;
  }
  // TypeGraphQL orders fields as its decorators ran, that is as modules were
  // first imported, which differs with what imported a resolver first: the
  // schema is sorted so its SDL (and the composed supergraph) is one text.
  return buildSubgraphSchema({ typeDefs: parse(federationLink + printSchemaWithDirectives(lexicographicSortSchema(schema))), resolvers });
}
