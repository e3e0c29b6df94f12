import { GraphQLError } from 'graphql';

/**
 * The error again with `extensions` added to its own: the same message,
 * locations, path and original error. A GraphQL error's extensions are
 * read-only once made, so the plugins that code, stamp or give a status to
 * an error make it anew.
 */
export function withExtensions(error: GraphQLError, extensions: Record<string, unknown>): GraphQLError {
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError ?? undefined,
    extensions: { ...error.extensions, ...extensions },
  });
}
