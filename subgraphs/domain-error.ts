import { GraphQLError } from 'graphql';

/**
 * An expected failure with a stable code from the spec's list (part 7). The
 * facade turns the code into an HTTP status; GraphQL clients read it from
 * `extensions.code`. `details` adds fields such as the offending `field`;
 * `cause`, the lower-level error it stands for (a database constraint), is
 * kept for logs and never shown to the client.
 */
export function domainError(code: string, message: string, details: Record<string, unknown> = {}, cause?: unknown): GraphQLError {
  return new GraphQLError(message, { extensions: { code, ...details }, originalError: cause instanceof Error ? cause : undefined });
}

export const notFound = (what: string) => domainError('not_found', `${what} not found`);
