import { createGraphQLError } from '@graphql-tools/utils';
import type { GraphQLError } from 'graphql';
import { databaseRetryAfterSeconds, databaseUnavailableMessage, isDatabaseUnavailable } from '../runtime/database-availability.ts';

/** 503 `service_unavailable` with `Retry-After`, the answer while the database is away (contract "database lost"). */
export function serviceUnavailable(): GraphQLError {
  // No `originalError`: the gateway would mask an error that wraps a non-GraphQL one as "Unexpected error.".
  return createGraphQLError(databaseUnavailableMessage, {
    extensions: {
      code: 'service_unavailable',
      retryAfterSeconds: databaseRetryAfterSeconds,
      http: { status: 503, headers: { 'retry-after': String(databaseRetryAfterSeconds) } },
    },
  });
}

/**
 * Runs a lookup the gateway makes in the database on every request (the
 * credential, the rate-limit count): a database that is away makes it a 503
 * the client may retry, not an internal error.
 */
export async function lookUpInDatabase<T>(lookup: Promise<T>): Promise<T> {
  try {
    return await lookup;
  } catch (error) {
    throw isDatabaseUnavailable(error) ? serviceUnavailable() : error;
  }
}
