import { GraphQLScalarType, valueFromASTUntyped } from 'graphql';

/**
 * Any JSON value, passed through as is. For answers whose shape is another
 * endpoint's body, such as a keyword suggestion's PATCH body (spec 2.6),
 * where an omitted field and a null one mean different things.
 */
export const JsonScalar = new GraphQLScalarType<unknown, unknown>({
  name: 'JSON',
  description: 'Any JSON value',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables),
});
