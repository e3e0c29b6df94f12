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

/**
 * The GraphQL answer standing for a part of a many-process deployment that
 * cannot be reached (a subgraph process behind the gateway, the gateway
 * behind the facade: stopped, restarting, not started yet): the same 503
 * `service_unavailable` with `Retry-After` as a database away, for the
 * client to retry, rather than an internal error.
 */
export function unreachablePartResponse(part: string): Response {
  const body = {
    data: null,
    errors: [{ message: `${part} is not reachable; retry shortly`, extensions: { code: 'service_unavailable', retryAfterSeconds: databaseRetryAfterSeconds } }],
  };
  // A GraphQL result, which the gateway and the facade read from any status: the code is what makes it a 503.
  return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' } });
}
