import { GraphQLError } from 'graphql';

/**
 * An expected failure with a stable code from the spec's list (part 7). The
 * facade turns the code into an HTTP status; GraphQL clients read it from
 * `extensions.code`. `details` adds fields such as the offending `field`.
 */
export function domainError(code: string, message: string, details: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { code, ...details } });
}

export const notFound = (what: string) => domainError('not_found', `${what} not found`);
